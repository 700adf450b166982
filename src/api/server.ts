import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { loadKubeConfig } from '../adapters/kubernetes/kube-config.js';
import { KubernetesStaticExports } from '../adapters/kubernetes/static-export-client.js';
import { PgAssistantEvents } from '../adapters/postgres/pg-assistant-events.js';
import { PgIdentityStore } from '../adapters/postgres/pg-identity-store.js';
import { PgRateLimiter } from '../adapters/postgres/pg-rate-limiter.js';
import { PgSearchIndex } from '../adapters/postgres/pg-search-index.js';
import { createPool, ping } from '../adapters/postgres/pool.js';
import { S3ObjectStore } from '../adapters/s3/s3-object-store.js';
import type { Config } from '../config/config.js';
import { ExportJobs } from '../exportjobs/export-jobs.js';
import type { Logger } from '../observability/logger.js';
import { createApiApp, createOpsApp } from './app.js';
import type { Readiness } from './health/probes.js';

export interface RunningApi {
  /** http://host:port of the REST API. */
  url: string;
  /** http://host:port of /metrics and the probes. */
  opsUrl: string;
  registry: Registry;
  /**
   * Fails readiness, waits `drainMs` so load balancers stop sending (Kubernetes needs a few
   * seconds to update endpoints), then finishes the requests in flight and closes the pool.
   */
  stop(drainMs?: number): Promise<void>;
}

const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** Checks what the API cannot serve without, by variable name, before connecting anywhere. */
export function apiConfigProblems(config: Config): string[] {
  const problems: string[] = [];
  if (!config.DATABASE_URL) problems.push('DATABASE_URL: required by the API (organizations, keys, limits, events and search live in PostgreSQL)');
  if (!config.S3_BUCKET) problems.push('S3_BUCKET: required by the API (bundle links are presigned from the export bucket)');
  return problems;
}

function listen(server: Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`http://${shownHost}:${address.port}`);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/**
 * Composition root of `docport api`: runs the migrations, wires the adapters from the parsed
 * config, and serves the REST API and the operations listener.
 */
export async function startApiServer(config: Config, logger: Logger, options: { clock?: () => Date } = {}): Promise<RunningApi> {
  const problems = apiConfigProblems(config);
  if (problems.length > 0) throw new Error(`cannot start the API:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  const clock = options.clock ?? (() => new Date());
  const pool = createPool(config.DATABASE_URL!, config.DATABASE_POOL_SIZE);
  try {
    const identity = await PgIdentityStore.create({ pool });
    const rateLimiter = await PgRateLimiter.create({ pool });
    const events = await PgAssistantEvents.create({ pool });
    const search = await PgSearchIndex.create({ pool });
    const objects = S3ObjectStore.fromSettings({
      region: config.S3_REGION, bucket: config.S3_BUCKET!, forcePathStyle: config.S3_FORCE_PATH_STYLE,
      ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
      ...(config.S3_ACCESS_KEY_ID ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY! } : {}),
    });
    const exportJobs = new ExportJobs({
      exports: new KubernetesStaticExports(loadKubeConfig(config.KUBECONFIG)),
      objects, identity, namespace: config.EXPORT_NAMESPACE, presignTtlSeconds: config.PRESIGN_TTL_SECONDS, clock,
    });
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const readiness: Readiness = { draining: false, check: () => ping(pool) };
    const deps = {
      identity, rateLimiter, events, search, exportJobs, registry, logger, clock, readiness, version: packageVersion(),
      bodyLimitBytes: config.API_BODY_LIMIT_BYTES,
      limits: { analytics: config.RATE_LIMIT_ANALYTICS_PER_HOUR, export: config.RATE_LIMIT_EXPORT_PER_HOUR, search: config.RATE_LIMIT_SEARCH_PER_HOUR },
    };
    const apiHandler = createApiApp(deps).callback();
    const opsHandler = createOpsApp(deps).callback();
    // Koa's handlers never reject: errors become responses inside them.
    const api = createServer((req, res) => void apiHandler(req, res));
    const ops = createServer((req, res) => void opsHandler(req, res));
    // Keep-alive longer than common load balancer idle timeouts (60 s), so they close first.
    api.keepAliveTimeout = 65_000;
    const url = await listen(api, config.HTTP_HOST, config.HTTP_PORT);
    const opsUrl = await listen(ops, config.HTTP_HOST, config.METRICS_PORT);
    const prune = setInterval(() => {
      rateLimiter.pruneFinishedWindows().catch((error: unknown) => logger.warn('pruning rate limit windows failed', { error }));
    }, PRUNE_INTERVAL_MS);
    prune.unref();
    logger.info('REST API listening', { url, opsUrl, exportNamespace: config.EXPORT_NAMESPACE });
    let stopped: Promise<void> | undefined;
    const stop = async (drainMs: number): Promise<void> => {
      readiness.draining = true;
      if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
      clearInterval(prune);
      await Promise.all([close(api), close(ops)]);
      await pool.end();
    };
    return { url, opsUrl, registry, stop: (drainMs = 0) => (stopped ??= stop(drainMs)) };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
