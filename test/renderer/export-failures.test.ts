// A render that fails part-way still honours the controller contract: result.json
// (failed) is the last object written, nothing of the crawl outlives runExport, and the
// work dir is gone. Failures are injected through our ObjectStore port and the limits.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { renderResultSchema, type RenderRequest } from '../../src/apis/render/contract.js';
import { createLogger } from '../../src/observability/logger.js';
import type { ObjectStore } from '../../src/ports/object-store.js';
import { ProgressReporter } from '../../src/renderer/progress.js';
import { runExport } from '../../src/renderer/run-export.js';
import type { RendererSettings } from '../../src/renderer/settings.js';
import { chromiumFor, exportTarget, quietLogger, testSettings } from './support/export-env.js';
import { FIXTURES, startFixtureSites, type FixtureSites } from './support/fixture-site.js';
import { assertResultWrittenLast, RecordingStore } from './support/recording-store.js';
import { serveDirectory, type ServedSite } from './support/static-server.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Pages of ~2 KB, two of which take 1.5 s: they are mid-render when the budget runs out. */
function pagesSite(): Promise<ServedSite> {
  const page = (title: string, body: string): string => `<!doctype html><html lang="en"><title>${title}</title><main><h1>${title}</h1>${body}</main></html>`;
  return serveDirectory(`${FIXTURES}docs`, {
    routes: async (_req, res, pathname) => {
      if (pathname === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(page('Home', ['p1', 'p2', 'slow1', 'slow2'].map((p) => `<a href="/${p}/">${p}</a>`).join(' ')));
        return true;
      }
      if (pathname.startsWith('/slow')) await sleep(1500);
      res.writeHead(200, { 'content-type': 'text/html' }).end(page(pathname, `<p>${'lorem ipsum '.repeat(170)}</p>`));
      return true;
    },
  });
}

describe('a failing render', () => {
  let sites: FixtureSites;
  let target: Awaited<ReturnType<typeof exportTarget>>;
  let generation = 0;
  before(async () => {
    sites = await startFixtureSites();
    target = await exportTarget('failures', { domain: 'docs.failures.test', origin: `${sites.site.origin}/` });
  });
  after(() => sites?.close());

  const render = async (origin: string, store: ObjectStore, settings: RendererSettings, log = quietLogger(), print: (line: string) => void = () => undefined) => {
    generation++;
    const request: RenderRequest = {
      namespace: target.namespace, name: 'failures', generation, domain: 'docs.failures.test', origin,
      ...(origin === `${sites.site.origin}/` ? { paths: ['/v1/en/'] } : {}), format: 'zip', outputPrefix: `exports/${target.namespace}/failures/g${generation}/`,
    };
    const progress = new ProgressReporter(async (p, pageCount) => void (await target.staticExports.patchStatus(target.namespace, 'failures', { progress: p, pageCount })), print, log);
    const result = await runExport(request, { store, settings, progress, log, openBrowser: chromiumFor(settings, log) });
    const stored = await target.store.read(`${request.outputPrefix}result.json`);
    return { result, stored: stored && renderResultSchema.parse(JSON.parse(stored.toString('utf8'))) };
  };

  it('writes a failed result.json last when the archive upload fails mid-stream', async () => {
    const store = new RecordingStore(target.store, { failUpload: true });
    const settings = await testSettings();
    const { result, stored } = await render(`${sites.site.origin}/`, store, settings);
    assert.equal(result.outcome, 'failed');
    assert.match(result.outcome === 'failed' ? result.error : '', /injected failure of upload .*bundle\.zip/);
    assert.deepEqual(stored, result);
    await sleep(300);
    assertResultWrittenLast(store.events);
    assert.deepEqual(await readdir(settings.workDir), [], 'the work dir is removed');
  });

  it('stops the file uploads at the first failed PUT and waits for those in flight', async () => {
    const store = new RecordingStore(target.store, { failFilePut: 1, putDelayMs: 150 });
    const { result, stored } = await render(`${sites.site.origin}/`, store, await testSettings());
    assert.match(result.outcome === 'failed' ? result.error : '', /injected failure of put/);
    assert.deepEqual(stored, result);
    await sleep(500);
    assertResultWrittenLast(store.events);
    assert.ok(store.events.filter((e) => e.key.includes('/files/') && e.phase === 'start').length < 9, 'queued PUTs are not started');
  });

  it('fails on RENDER_MAX_EXPORT_BYTES, and no page, log or progress of the crawl outlives it', async () => {
    const site = await pagesSite();
    try {
      const lines: Array<{ at: number; line: string }> = [];
      const log = createLogger('debug', {}, (line) => lines.push({ at: Date.now(), line }));
      const store = new RecordingStore(target.store);
      const settings = await testSettings({ concurrency: 3, maxExportBytes: 3000 });
      const { result, stored } = await render(`${site.origin}/`, store, settings, log, (line) => lines.push({ at: Date.now(), line }));
      const returned = Date.now();
      const hits = [...site.hits.values()].reduce((a, b) => a + b, 0);
      assert.match(result.outcome === 'failed' ? result.error : '', /RENDER_MAX_EXPORT_BYTES \(3000 bytes\)/);
      assert.deepEqual(stored, result);
      await sleep(2000); // longer than a retry backoff and the slow pages
      assert.deepEqual(lines.filter((l) => l.at > returned).map((l) => l.line), [], 'nothing runs after the render returned');
      assert.equal([...site.hits.values()].reduce((a, b) => a + b, 0), hits, 'no page is requested after the render returned');
      assertResultWrittenLast(store.events);
      assert.deepEqual(await readdir(settings.workDir), []);
    } finally {
      await site.close();
    }
  });
});
