// Wiring for end-to-end renderer tests: real S3 bucket, real kube-apiserver with a
// StaticExport to report progress to, Chromium through the production adapter.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChromiumPagePool } from '../../../src/adapters/playwright/chromium-page-pool.js';
import { KubernetesStaticExports } from '../../../src/adapters/kubernetes/static-export-client.js';
import { S3ObjectStore } from '../../../src/adapters/s3/s3-object-store.js';
import { CHROMIUM_ARGS } from '../../../src/devenv/chromium.js';
import { createLogger, type Logger } from '../../../src/observability/logger.js';
import type { BrowserFactory } from '../../../src/renderer/crawl-session.js';
import type { RendererSettings } from '../../../src/renderer/settings.js';
import { cleanup, requireEnv } from '../../support/environment.js';
import { applyStaticExportCrd } from '../../support/crd.js';
import { testNamespace } from '../../support/kubernetes.js';
import { testBucket } from '../../support/s3.js';

export async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  cleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export async function testSettings(overrides: Partial<RendererSettings> = {}): Promise<RendererSettings> {
  return {
    concurrency: 2, pageTimeoutMs: 2500, pageRetries: 2, quietMs: 150, maxPages: 200,
    maxAssetBytes: 5000, maxExportBytes: 200 * 1024 * 1024, assetHosts: [], allowPrivateNetworks: true,
    workDir: await scratchDir('docport-render-test-'), chromiumPath: requireEnv('DOCPORT_CHROMIUM_PATH', 'Chromium'),
    ...overrides,
  };
}

export function quietLogger(): Logger {
  return createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'error', {}, (line) => process.stderr.write(`${line}\n`));
}

export function chromiumFor(settings: RendererSettings, log: Logger, pools: ChromiumPagePool[] = []): BrowserFactory {
  return (proxyServer) => {
    const pool = new ChromiumPagePool({
      executablePath: settings.chromiumPath, args: CHROMIUM_ARGS, proxyServer, size: settings.concurrency,
      timeoutMs: settings.pageTimeoutMs, quietMs: settings.quietMs, log,
    });
    pools.push(pool);
    return Promise.resolve(pool);
  };
}

export async function exportTarget(name: string, spec: { domain: string; origin: string }): Promise<{ staticExports: KubernetesStaticExports; namespace: string; store: S3ObjectStore; bucket: Awaited<ReturnType<typeof testBucket>>; kubeconfigPath: string }> {
  const [ns, bucket] = await Promise.all([testNamespace('render'), testBucket()]);
  await applyStaticExportCrd(ns.kubeConfig);
  const staticExports = new KubernetesStaticExports(ns.kubeConfig);
  await staticExports.create({ namespace: ns.namespace, name, labels: {}, spec });
  const store = S3ObjectStore.fromSettings({
    endpoint: bucket.endpoint, region: bucket.region, bucket: bucket.bucket, accessKeyId: bucket.accessKeyId,
    secretAccessKey: bucket.secretAccessKey, forcePathStyle: true,
  });
  return { staticExports, namespace: ns.namespace, store, bucket, kubeconfigPath: ns.kubeconfigPath };
}
