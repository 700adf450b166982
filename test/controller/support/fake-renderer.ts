// A stand-in for `docport render` that honours the same contract (src/apis/render/contract.ts):
// progress patches on the StaticExport, outputs under the prefix, result.json last.
// The origin's path picks the behaviour: /fail/ (failed result, exit 1), /crash/ (exit 3,
// no result), /slow/ (runs until killed); anything else succeeds.
import { createHash } from 'node:crypto';
import { KubernetesStaticExports } from '../../../src/adapters/kubernetes/static-export-client.js';
import { loadKubeConfig } from '../../../src/adapters/kubernetes/kube-config.js';
import { S3ObjectStore } from '../../../src/adapters/s3/s3-object-store.js';
import { RESULT_FILE, archiveFileName, renderRequestSchema, type RenderResult } from '../../../src/apis/render/contract.js';

const env = process.env;
const request = renderRequestSchema.parse(JSON.parse(env.RENDER_REQUEST ?? ''));
const exports = new KubernetesStaticExports(loadKubeConfig(env.KUBECONFIG));
const store = S3ObjectStore.fromSettings({
  endpoint: env.S3_ENDPOINT!, region: env.S3_REGION!, bucket: env.S3_BUCKET!, forcePathStyle: true,
  accessKeyId: env.S3_ACCESS_KEY_ID!, secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
});
const mode = new URL(request.origin).pathname;
const completedAt = () => new Date().toISOString();

await exports.patchStatus(request.namespace, request.name, { progress: 50, pageCount: 2 });
process.stderr.write('rendered 2 pages (50%)\n');
if (mode.includes('/slow/')) {
  await new Promise(() => setInterval(() => undefined, 1000));
}
if (mode.includes('/crash/')) {
  process.stderr.write('chromium crashed and could not be restarted\n');
  process.exit(3);
}
if (mode.includes('/fail/')) {
  const result: RenderResult = { outcome: 'failed', generation: request.generation, error: 'origin answered 503 for /', pageCount: 2, completedAt: completedAt() };
  await store.put(`${request.outputPrefix}${RESULT_FILE}`, JSON.stringify(result), 'application/json');
  process.exit(1);
}
const archive = Buffer.from(`archive of ${request.domain} generation ${request.generation}`);
const archiveKey = `${request.outputPrefix}${archiveFileName(request.format)}`;
await store.put(`${request.outputPrefix}files/index.html`, '<h1>docs</h1>', 'text/html');
await store.put(`${request.outputPrefix}manifest.json`, JSON.stringify({ pages: ['/'] }), 'application/json');
await store.put(archiveKey, archive, 'application/zip');
await exports.patchStatus(request.namespace, request.name, { progress: 100, pageCount: 4 });
const result: RenderResult = {
  outcome: 'succeeded', generation: request.generation, archiveKey, format: request.format, sizeBytes: archive.length,
  sha256: createHash('sha256').update(archive).digest('hex'), pageCount: 4, manifestKey: `${request.outputPrefix}manifest.json`, completedAt: completedAt(),
};
await store.put(`${request.outputPrefix}${RESULT_FILE}`, JSON.stringify(result), 'application/json');
