import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import type { KubeConfig } from '@kubernetes/client-node';
import { S3ObjectStore } from '../../../src/adapters/s3/s3-object-store.js';
import { startManager, type Manager, type ManagerOptions } from '../../../src/controller/manager.js';
import type { RenderJobSettings } from '../../../src/controller/staticexport/render-job.js';
import { createLogger } from '../../../src/observability/logger.js';
import type { TestBucket } from '../../support/s3.js';

export const FAKE_RENDERER = fileURLToPath(new URL('./fake-renderer.js', import.meta.url));

export const JOB_SETTINGS: RenderJobSettings = {
  image: 'docport/docport:test', imagePullPolicy: 'IfNotPresent', serviceAccountName: 'docport-renderer', secretName: 'docport-render',
  env: { S3_BUCKET: 'b', S3_REGION: 'us-east-1' }, backoffLimit: 2, activeDeadlineSeconds: 3600, ttlSecondsAfterFinished: 86400,
  resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '2Gi' } },
};

/** Environment a local render child needs to reach the test's API server and bucket. */
export function rendererEnv(kubeconfigPath: string, s3: TestBucket): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '', KUBECONFIG: kubeconfigPath, NODE_NO_WARNINGS: '1',
    S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_BUCKET: s3.bucket, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  };
}

export interface TestManagerOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  s3: TestBucket;
  executor?: ManagerOptions['executor'];
  leaderElection?: ManagerOptions['leaderElection'];
  identity?: string;
  decide?: Partial<ManagerOptions['decide']>;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
}

/** An in-process controller watching only the test's namespace (test files run in parallel). */
export async function startTestManager(o: TestManagerOptions): Promise<Manager & { registry: Registry }> {
  const registry = new Registry();
  const manager = await startManager({
    kubeConfig: o.kubeConfig,
    objects: S3ObjectStore.fromSettings({ ...o.s3, forcePathStyle: true }),
    log: createLogger(o.logLevel ?? 'error', { test: o.namespace, identity: o.identity ?? 'test' }),
    registry,
    identity: o.identity ?? 'test-controller',
    namespace: o.namespace,
    workers: 2,
    resyncMs: 60_000,
    decide: { presignTtlSeconds: 3600, refreshFraction: 0.2, waitRetryMs: 2000, ...o.decide },
    helmReleaseApiVersion: 'helm.toolkit.fluxcd.io/v2',
    executor: o.executor ?? { kind: 'kubernetes', job: JOB_SETTINGS },
    ...(o.leaderElection ? { leaderElection: o.leaderElection } : {}),
  });
  return Object.assign(manager, { registry });
}

/** Polls until `check` returns a value (not undefined/false), or fails with the last observation. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
