import { KubernetesStaticExports } from '../../adapters/kubernetes/static-export-client.js';
import { loadKubeConfig } from '../../adapters/kubernetes/kube-config.js';
import { S3ObjectStore } from '../../adapters/s3/s3-object-store.js';
import { renderRequestSchema, type RenderRequest } from '../../apis/render/contract.js';
import { createLogger } from '../../observability/logger.js';
import { ProgressReporter } from '../../renderer/progress.js';
import { runExport, safeErrorMessage, writeFailedResult } from '../../renderer/run-export.js';
import type { Command } from '../command.js';
import { chromiumFactory, loadConfig, postgresSearchIndex, printToStderr, settingsFrom } from './render-wiring.js';

function parseRequest(raw: string | undefined): RenderRequest | string {
  if (!raw) return 'RENDER_REQUEST is not set (the controller passes the render request as JSON in it)';
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return 'RENDER_REQUEST is not valid JSON';
  }
  const parsed = renderRequestSchema.safeParse(json);
  if (!parsed.success) return `RENDER_REQUEST is invalid:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(request)'}: ${i.message}`).join('\n')}`;
  return parsed.data;
}

export const renderCommand: Command = {
  name: 'render',
  summary: 'render a site into a self-contained export (the render Job; reads RENDER_REQUEST)',
  async run(_args, env) {
    const config = loadConfig(env);
    if (!config) return 2;
    const request = parseRequest(env.RENDER_REQUEST);
    if (typeof request === 'string') {
      console.error(`docport render: ${request}`);
      return 2;
    }
    if (!config.S3_BUCKET) {
      console.error('docport render: S3_BUCKET (and the other S3_* settings) must be configured: the export is written to object storage');
      return 2;
    }
    const log = createLogger(config.LOG_LEVEL, { component: 'renderer', staticExport: `${request.namespace}/${request.name}`, generation: request.generation });
    const store = S3ObjectStore.fromSettings({
      bucket: config.S3_BUCKET, region: config.S3_REGION, forcePathStyle: config.S3_FORCE_PATH_STYLE,
      ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
      ...(config.S3_ACCESS_KEY_ID ? { accessKeyId: config.S3_ACCESS_KEY_ID } : {}),
      ...(config.S3_SECRET_ACCESS_KEY ? { secretAccessKey: config.S3_SECRET_ACCESS_KEY } : {}),
    });
    let staticExports: KubernetesStaticExports;
    try {
      staticExports = new KubernetesStaticExports(loadKubeConfig(config.KUBECONFIG));
    } catch (error) {
      // The controller learns why only from result.json; the object store is still reachable.
      const result = await writeFailedResult(request, new Error(`cannot load the kubeconfig: ${safeErrorMessage(error)}`), 0, { store, log });
      printToStderr(`docport render: failed: ${result.error}`);
      return 1;
    }
    const progress = new ProgressReporter(
      async (p, pageCount) => void (await staticExports.patchStatus(request.namespace, request.name, { progress: p, pageCount })),
      printToStderr,
      log,
    );
    const searchIndex = config.DATABASE_URL ? postgresSearchIndex(config.DATABASE_URL) : undefined;
    const settings = settingsFrom(config);
    try {
      const result = await runExport(request, {
        store, settings, progress, log, openBrowser: chromiumFactory(settings, log),
        ...(searchIndex ? { searchIndex } : {}),
      });
      if (result.outcome === 'failed') printToStderr(`docport render: failed: ${result.error}`);
      else printToStderr(`docport render: ${result.pageCount} pages, ${result.archiveKey} (${result.sizeBytes} bytes, sha256 ${result.sha256})`);
      return result.outcome === 'succeeded' ? 0 : 1;
    } finally {
      await searchIndex?.close();
    }
  },
};
