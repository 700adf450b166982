import path from 'node:path';
import { readFile } from 'node:fs/promises';
import {
  archiveFileName, FILES_DIR, MANIFEST_FILE, RESULT_FILE, renderResultSchema, type RenderRequest, type RenderResult,
} from '../apis/render/contract.js';
import { redactString, type Logger } from '../observability/logger.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { SearchIndex } from '../ports/search-index.js';
import { Semaphore } from './assets/limits.js';
import { withCrawlSession, type BrowserFactory } from './crawl-session.js';
import { contentTypeOf } from './output/content-types.js';
import { problemList, type ExportManifest } from './output/manifest.js';
import { uploadArchive } from './output/archive.js';
import { writeExportTree } from './output/write-tree.js';
import type { ProgressReporter } from './progress.js';
import type { RendererSettings } from './settings.js';

export interface ExportDeps {
  store: ObjectStore;
  /** Absent when DATABASE_URL is not configured: indexing is skipped (and logged). */
  searchIndex?: SearchIndex;
  openBrowser: BrowserFactory;
  settings: RendererSettings;
  progress: ProgressReporter;
  log: Logger;
  now?: () => Date;
}

/** Crawl share of the progress bar; the rest is writing, uploading and archiving. */
const CRAWL_SHARE = 85;

export class RenderFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderFailure';
  }
}

/** A message safe for result.json, logs and the StaticExport status: no secrets, bounded. */
export function safeErrorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return redactString(text).slice(0, 4000);
}

/**
 * `docport render`: crawl and render the site, write the self-contained tree, upload it
 * with manifest.json and the archive, refresh search, and write result.json last.
 * Returns the result it wrote (a failed one when anything went wrong).
 */
export async function runExport(request: RenderRequest, deps: ExportDeps): Promise<RenderResult> {
  const now = deps.now ?? (() => new Date());
  const prefix = request.outputPrefix;
  let pageCount = 0;
  try {
    const result = await withCrawlSession(request, 'export', deps.settings, deps.openBrowser, deps.log,
      (done, pending, state) => {
        pageCount = state.pages.size;
        deps.progress.update((done / Math.max(1, done + pending)) * CRAWL_SHARE, pageCount, `${pending} to go`);
      },
      async (session) => {
        const { state, assets } = session;
        pageCount = state.pages.size;
        if (pageCount === 0) {
          const first = state.pageFailures()[0] ?? state.pageSkips()[0];
          throw new RenderFailure(`no page of ${request.origin} could be rendered${first ? `: ${first.url}: ${first.reason}` : ''}`);
        }
        const outDir = path.join(session.workDir, 'out');
        const tree = await writeExportTree(outDir, state, assets, session.tokenPrefix);
        deps.progress.update(88, pageCount, 'tree written');

        const search = await indexSections(request, [...state.pages.values()].flatMap((p) => p.sections), deps);

        await uploadFiles(tree.files, outDir, `${prefix}${FILES_DIR}`, deps.store, (uploaded) =>
          deps.progress.update(88 + (uploaded / tree.files.length) * 6, pageCount, `uploaded ${uploaded}/${tree.files.length} files`));

        const manifest: ExportManifest = {
          schemaVersion: 1,
          domain: request.domain,
          ...(request.version ? { version: request.version } : {}),
          origin: request.origin,
          paths: [...session.scope.prefixes],
          generatedAt: now().toISOString(),
          totals: { pages: tree.pages.length, assets: tree.assets.length, files: tree.files.length, bytes: tree.bytes },
          pages: tree.pages,
          assets: tree.assets,
          skipped: problemList([...state.pageSkips(), ...assets.skipped(), ...[...session.refusals].map(([url, reason]) => ({ url, reason }))]),
          failed: problemList([...state.pageFailures(), ...assets.failed()]),
          brokenReferences: tree.brokenReferences,
          search,
        };
        const manifestKey = `${prefix}${MANIFEST_FILE}`;
        await deps.store.put(manifestKey, JSON.stringify(manifest, null, 2), 'application/json');
        deps.progress.update(95, pageCount, 'manifest written');

        const archiveKey = `${prefix}${archiveFileName(request.format)}`;
        const archive = await uploadArchive(deps.store, archiveKey, request.format, outDir, tree.files);
        deps.progress.update(99, pageCount, 'archive uploaded');
        deps.log.info('export written', { pages: pageCount, files: tree.files.length, archiveBytes: archive.sizeBytes, skipped: manifest.skipped.length, failed: manifest.failed.length });
        return renderResultSchema.parse({
          outcome: 'succeeded', generation: request.generation, archiveKey, format: request.format,
          sizeBytes: archive.sizeBytes, sha256: archive.sha256, pageCount, manifestKey, completedAt: now().toISOString(),
        });
      });
    await deps.store.put(`${prefix}${RESULT_FILE}`, JSON.stringify(result, null, 2), 'application/json');
    await deps.progress.finish(100, pageCount);
    return result;
  } catch (error) {
    const result = await writeFailedResult(request, error, pageCount, { ...deps, now });
    await deps.progress.finish(undefined, pageCount);
    return result;
  }
}

/**
 * Writes a failed result.json (when the store is reachable) and returns it. Also used by
 * the command for failures before the export starts (a kubeconfig that cannot be loaded).
 */
export async function writeFailedResult(
  request: Pick<RenderRequest, 'generation' | 'outputPrefix'>,
  error: unknown,
  pageCount: number,
  deps: Pick<ExportDeps, 'store' | 'log' | 'now'>,
): Promise<Extract<RenderResult, { outcome: 'failed' }>> {
  const message = safeErrorMessage(error);
  deps.log.error('render failed', { error: message });
  const completedAt = (deps.now ?? (() => new Date()))().toISOString();
  const result = { outcome: 'failed' as const, generation: request.generation, error: message, pageCount, completedAt };
  renderResultSchema.parse(result);
  await deps.store.put(`${request.outputPrefix}${RESULT_FILE}`, JSON.stringify(result, null, 2), 'application/json')
    .catch((e: unknown) => deps.log.error('could not write the failed result.json', { error: safeErrorMessage(e) }));
  return result;
}

/**
 * One PUT per file, 8 at a time. The first failure stops the queue, and the in-flight
 * PUTs are waited for, so no object lands after the failed result.json.
 */
async function uploadFiles(files: readonly string[], dir: string, keyPrefix: string, store: ObjectStore, onUploaded: (count: number) => void): Promise<void> {
  const uploads = new Semaphore(8);
  let uploaded = 0;
  let failure: { error: unknown } | undefined;
  await Promise.allSettled(files.map((file) => uploads.run(async () => {
    if (failure) return;
    try {
      await store.put(`${keyPrefix}${file}`, await readFile(path.join(dir, file)), contentTypeOf(file));
      onUploaded(++uploaded);
    } catch (error) {
      failure ??= { error };
    }
  })));
  if (failure) throw failure.error;
}

async function indexSections(
  request: { domain: string; version?: string | undefined },
  sections: Parameters<SearchIndex['replaceSections']>[2],
  deps: Pick<ExportDeps, 'searchIndex' | 'log'>,
): Promise<ExportManifest['search']> {
  if (!deps.searchIndex) {
    deps.log.info('search indexing skipped: DATABASE_URL is not configured', { sections: sections.length });
    return { skipped: 'DATABASE_URL is not configured' };
  }
  try {
    const { inserted } = await deps.searchIndex.replaceSections(request.domain, request.version, sections);
    deps.log.info('search sections replaced', { domain: request.domain, version: request.version, sections: inserted });
    return { indexedSections: inserted };
  } catch (error) {
    // The export is the product; a search index that could not be refreshed is reported, not fatal.
    const message = safeErrorMessage(error);
    deps.log.error('search indexing failed', { error: message });
    return { error: message };
  }
}
