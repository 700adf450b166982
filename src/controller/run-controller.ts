import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { loadKubeConfig } from '../adapters/kubernetes/kube-config.js';
import { S3ObjectStore } from '../adapters/s3/s3-object-store.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../observability/logger.js';
import { startHealthServer } from './health-server.js';
import { startManager, type Manager } from './manager.js';

export interface RunningController {
  manager: Manager;
  metricsPort: number;
  stop(): Promise<void>;
}

/** Builds the controller from configuration (the composition root). */
/** Non-secret settings every render Job gets as plain env (credentials come from the Secret). */
export function rendererJobEnv(config: Config): Record<string, string> {
  return {
    S3_REGION: config.S3_REGION, S3_BUCKET: config.S3_BUCKET ?? '', S3_FORCE_PATH_STYLE: String(config.S3_FORCE_PATH_STYLE),
    ...(config.S3_ENDPOINT ? { S3_ENDPOINT: config.S3_ENDPOINT } : {}),
    LOG_LEVEL: config.LOG_LEVEL,
    CHROMIUM_PATH: config.CHROMIUM_PATH,
    // The renderer's limits and network policy travel with every render Job.
    RENDER_CONCURRENCY: String(config.RENDER_CONCURRENCY),
    RENDER_PAGE_TIMEOUT_SECONDS: String(config.RENDER_PAGE_TIMEOUT_SECONDS),
    RENDER_PAGE_RETRIES: String(config.RENDER_PAGE_RETRIES),
    RENDER_QUIET_MS: String(config.RENDER_QUIET_MS),
    RENDER_MAX_PAGES: String(config.RENDER_MAX_PAGES),
    RENDER_MAX_ASSET_BYTES: String(config.RENDER_MAX_ASSET_BYTES),
    RENDER_MAX_EXPORT_BYTES: String(config.RENDER_MAX_EXPORT_BYTES),
    RENDER_ALLOW_PRIVATE_NETWORKS: String(config.RENDER_ALLOW_PRIVATE_NETWORKS),
    ...(config.RENDER_ASSET_HOSTS.length > 0 ? { RENDER_ASSET_HOSTS: config.RENDER_ASSET_HOSTS.join(',') } : {}),
  };
}

export async function runController(config: Config, env: Readonly<Record<string, string | undefined>>, log: Logger, onLostLeadership?: () => void): Promise<RunningController> {
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required for the controller');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const kubeConfig = loadKubeConfig(config.KUBECONFIG);
  const objects = S3ObjectStore.fromSettings({
    bucket: config.S3_BUCKET, region: config.S3_REGION, forcePathStyle: config.S3_FORCE_PATH_STYLE,
    ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
    ...(config.S3_ACCESS_KEY_ID ? { accessKeyId: config.S3_ACCESS_KEY_ID } : {}),
    ...(config.S3_SECRET_ACCESS_KEY ? { secretAccessKey: config.S3_SECRET_ACCESS_KEY } : {}),
  });
  const identity = config.CONTROLLER_ID ?? `${hostname()}_${process.pid}`;
  const mainScript = fileURLToPath(new URL('../cli/main.js', import.meta.url));
  // Probes are served while the caches fill, so /readyz can say "not yet".
  const started: { manager?: Manager } = {};
  const health = await startHealthServer(config.HTTP_HOST, config.METRICS_PORT, registry, () => started.manager?.ready() ?? false);
  const manager = await startManager({
    kubeConfig, objects, log, registry, identity,
    ...(config.WATCH_NAMESPACE ? { namespace: config.WATCH_NAMESPACE } : {}),
    workers: config.CONTROLLER_WORKERS,
    resyncMs: config.CONTROLLER_RESYNC_SECONDS * 1000,
    decide: { presignTtlSeconds: config.PRESIGN_TTL_SECONDS, refreshFraction: config.VALUES_REFRESH_FRACTION, waitRetryMs: 30_000 },
    helmReleaseApiVersion: config.HELMRELEASE_API_VERSION,
    executor: config.RENDER_EXECUTOR === 'local'
      ? {
          kind: 'local',
          command: config.RENDER_COMMAND ?? [process.execPath, mainScript, 'render'],
          // The local renderer runs with the controller's own environment (same machine, same settings).
          env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== 'RENDER_REQUEST')),
        }
      : {
          kind: 'kubernetes',
          job: {
            image: config.RENDER_IMAGE, imagePullPolicy: config.RENDER_IMAGE_PULL_POLICY, serviceAccountName: config.RENDER_SERVICE_ACCOUNT,
            secretName: config.RENDER_SECRET_NAME, env: rendererJobEnv(config), backoffLimit: config.RENDER_BACKOFF_LIMIT,
            activeDeadlineSeconds: config.RENDER_DEADLINE_SECONDS, ttlSecondsAfterFinished: config.RENDER_TTL_SECONDS,
            resources: { requests: { cpu: config.RENDER_CPU_REQUEST, memory: config.RENDER_MEMORY_REQUEST }, limits: { cpu: config.RENDER_CPU_LIMIT, memory: config.RENDER_MEMORY_LIMIT } },
          },
        },
    ...(config.LEADER_ELECT
      ? { leaderElection: { namespace: config.LEADER_ELECTION_NAMESPACE ?? config.EXPORT_NAMESPACE, leaseName: config.LEADER_ELECTION_LEASE_NAME } }
      : {}),
    ...(onLostLeadership ? { onLostLeadership } : {}),
  });
  started.manager = manager;
  log.info('controller started', { identity, executor: config.RENDER_EXECUTOR, namespace: config.WATCH_NAMESPACE ?? 'all', metricsPort: health.port });
  return {
    manager,
    metricsPort: health.port,
    async stop() {
      await manager.stop();
      await health.close();
    },
  };
}
