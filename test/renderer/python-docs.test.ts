// Real documentation nobody here wrote: Debian's python3.11-doc HTML (Sphinx), served
// locally. A bounded subset (the tutorial) is exported as tar.gz and replayed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright';
import type { RenderRequest, RenderResult } from '../../src/apis/render/contract.js';
import { CHROMIUM_ARGS } from '../../src/devenv/chromium.js';
import type { ExportManifest } from '../../src/renderer/output/manifest.js';
import { ProgressReporter } from '../../src/renderer/progress.js';
import { runExport } from '../../src/renderer/run-export.js';
import { requireEnv } from '../support/environment.js';
import { chromiumFor, exportTarget, quietLogger, scratchDir, testSettings } from './support/export-env.js';
import { fileBase, replayExport, visibleText } from './support/replay.js';
import { serveDirectory, type ServedSite } from './support/static-server.js';

export const PYTHON_DOCS = '/usr/share/doc/python3.11/html';
const MAX_PAGES = 18;

describe('export of the Python 3.11 documentation (tutorial subset)', () => {
  let site: ServedSite;
  let browser: Browser;
  let result: RenderResult;
  let manifest: ExportManifest;
  let tree: string;

  before(async () => {
    if (!existsSync(`${PYTHON_DOCS}/tutorial/index.html`)) {
      throw new Error(`${PYTHON_DOCS} is missing: run \`make deps\` (installs Debian's python3.11-doc)`);
    }
    site = await serveDirectory(PYTHON_DOCS);
    const target = await exportTarget('python', { domain: 'docs.python.test', origin: `${site.origin}/` });
    browser = await chromium.launch({ executablePath: requireEnv('DOCPORT_CHROMIUM_PATH', 'Chromium'), args: CHROMIUM_ARGS });
    const settings = await testSettings({ maxPages: MAX_PAGES, maxAssetBytes: 10 * 1024 * 1024, pageTimeoutMs: 15_000 });
    const log = quietLogger();
    const request: RenderRequest = {
      namespace: target.namespace, name: 'python', generation: 3, domain: 'docs.python.test', version: '3.11',
      origin: `${site.origin}/`, paths: ['/tutorial/'], format: 'tar.gz', outputPrefix: `exports/${target.namespace}/python/g3/`,
    };
    const progress = new ProgressReporter(async (p, pageCount) => void (await target.staticExports.patchStatus(target.namespace, 'python', { progress: p, pageCount })), () => undefined, log);
    result = await runExport(request, { store: target.store, openBrowser: chromiumFor(settings, log), settings, progress, log });
    assert.equal(result.outcome, 'succeeded', JSON.stringify(result));
    if (result.outcome !== 'succeeded') return;
    manifest = JSON.parse((await target.store.read(result.manifestKey))!.toString('utf8')) as ExportManifest;
    tree = await scratchDir('docport-python-tree-');
    const archive = path.join(path.dirname(tree), `${path.basename(tree)}.tar.gz`);
    await writeFile(archive, (await target.store.read(result.archiveKey))!);
    execFileSync('tar', ['xzf', archive, '-C', tree]);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it('exports the tutorial pages with the theme assets, as tar.gz', () => {
    assert.equal(result.outcome === 'succeeded' && result.archiveKey.endsWith('/bundle.tar.gz'), true);
    const paths = manifest.pages.map((p) => p.path);
    assert.ok(paths.includes('tutorial/index.html') && paths.includes('tutorial/classes.html'), paths.join(', '));
    assert.ok(manifest.pages.length >= 15 && manifest.pages.length <= MAX_PAGES);
    assert.ok(manifest.pages.every((p) => p.path.startsWith('tutorial/')), 'pages stay inside spec.paths');
    for (const asset of ['/_static/pydoctheme.css?2022.1', '/_static/jquery.js', '/_static/py.svg', '/_static/copybutton.js']) {
      assert.ok(manifest.assets.some((a) => a.url === `${site.origin}${asset}`), `${asset} missing`);
    }
    assert.deepEqual(manifest.failed, []);
    assert.equal(manifest.search.skipped, 'DATABASE_URL is not configured');
  });

  it('replays every page over file:// and HTTP with nothing external, nothing failed, no broken link', async () => {
    const pages = manifest.pages.map((p) => p.path);
    const fromFile = await replayExport(browser, tree, fileBase(tree), pages);
    assert.deepEqual({ external: fromFile.externalRequests, failed: fromFile.failedRequests, broken: fromFile.brokenLinks }, { external: [], failed: [], broken: [] });
    const prefix = '/mirror/python-3.11/';
    const server = await serveDirectory(tree, { prefix });
    try {
      const overHttp = await replayExport(browser, tree, `${server.origin}${prefix}`, pages);
      assert.deepEqual({ external: overHttp.externalRequests, failed: overHttp.failedRequests, broken: overHttp.brokenLinks }, { external: [], failed: [], broken: [] });
      assert.ok(overHttp.checkedLinks > 200);
    } finally {
      await server.close();
    }
  });

  it('shows the same text as the live docs on sampled pages', async () => {
    const page = await browser.newPage();
    try {
      for (const sample of ['tutorial/index.html', 'tutorial/controlflow.html', 'tutorial/classes.html', 'tutorial/errors.html']) {
        await page.goto(`${site.origin}/${sample}`, { waitUntil: 'load' });
        const live = await visibleText(page);
        await page.goto(`${fileBase(tree)}${sample}`, { waitUntil: 'load' });
        assert.equal(await visibleText(page), live, sample);
        assert.ok(live.length > 500);
      }
    } finally {
      await page.close();
    }
  });
});
