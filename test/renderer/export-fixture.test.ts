// End to end on the fixture site: crawl, render, rewrite, upload, archive, progress,
// search sections; then the export is replayed from its own archive, over file:// and
// over HTTP under a random sub-path, with every request outside it aborted and counted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright';
import pg from 'pg';
import { createPool } from '../../src/adapters/postgres/pool.js';
import { PgSearchIndex } from '../../src/adapters/postgres/pg-search-index.js';
import { renderResultSchema, type RenderRequest, type RenderResult } from '../../src/apis/render/contract.js';
import { CHROMIUM_ARGS } from '../../src/devenv/chromium.js';
import type { ExportManifest } from '../../src/renderer/output/manifest.js';
import { ProgressReporter } from '../../src/renderer/progress.js';
import { runExport } from '../../src/renderer/run-export.js';
import { requireEnv } from '../support/environment.js';
import { testDatabase } from '../support/postgres.js';
import { chromiumFor, exportTarget, quietLogger, scratchDir, testSettings } from './support/export-env.js';
import { startFixtureSites, type FixtureSites } from './support/fixture-site.js';
import { assertResultWrittenLast, RecordingStore } from './support/recording-store.js';
import { fileBase, replayExport, visibleText } from './support/replay.js';
import { serveDirectory } from './support/static-server.js';

describe('export of the fixture site', () => {
  let sites: FixtureSites;
  let browser: Browser;
  let result: RenderResult;
  let manifest: ExportManifest;
  let tree: string;
  let databaseUrl: string;
  let target: Awaited<ReturnType<typeof exportTarget>>;
  let store: RecordingStore;
  const progressLines: string[] = [];
  let patches = 0;

  before(async () => {
    sites = await startFixtureSites();
    databaseUrl = await testDatabase();
    target = await exportTarget('fixture', { domain: 'docs.fixture.test', origin: `${sites.site.origin}/` });
    browser = await chromium.launch({ executablePath: requireEnv('DOCPORT_CHROMIUM_PATH', 'Chromium'), args: CHROMIUM_ARGS });
    const settings = await testSettings({ assetHosts: [sites.externalHost] });
    const log = quietLogger();
    const pool = createPool(databaseUrl, 2);
    const searchIndex = await PgSearchIndex.create({ pool });
    const request: RenderRequest = {
      namespace: target.namespace, name: 'fixture', generation: 1, domain: 'docs.fixture.test', version: 'v2',
      origin: `${sites.site.origin}/`, format: 'zip', outputPrefix: `exports/${target.namespace}/fixture/g1/`,
    };
    const progress = new ProgressReporter(
      async (p, pageCount) => { patches++; await target.staticExports.patchStatus(target.namespace, 'fixture', { progress: p, pageCount }); },
      (line) => progressLines.push(line), log,
    );
    try {
      store = new RecordingStore(target.store);
      result = await runExport(request, { store, searchIndex, openBrowser: chromiumFor(settings, log), settings, progress, log });
    } finally {
      await pool.end();
    }
    assert.equal(result.outcome, 'succeeded', JSON.stringify(result));
    manifest = JSON.parse((await target.store.read(`${request.outputPrefix}manifest.json`))!.toString('utf8')) as ExportManifest;
    // Everything below is checked on the archive's content: the bundle is what ships.
    tree = await scratchDir('docport-export-tree-');
    const archive = (await target.store.read(result.outcome === 'succeeded' ? result.archiveKey : ''))!;
    await import('node:fs/promises').then((fs) => fs.writeFile(path.join(tree, '..', `${path.basename(tree)}.zip`), archive));
    execFileSync('unzip', ['-q', path.join(tree, '..', `${path.basename(tree)}.zip`), '-d', tree]);
  });
  after(async () => {
    await browser?.close();
    await sites?.close();
  });

  const pagePath = (urlPath: string): string => {
    const page = manifest.pages.find((p) => new URL(p.url).pathname === urlPath);
    assert.ok(page, `no exported page for ${urlPath}; pages: ${manifest.pages.map((p) => new URL(p.url).pathname).join(', ')}`);
    return page.path;
  };
  const exported = (file: string): Promise<string> => readFile(path.join(tree, file), 'utf8');

  it('writes result.json last, matching the archive it names', async () => {
    assert.equal(result.outcome, 'succeeded');
    if (result.outcome !== 'succeeded') return;
    const stored = renderResultSchema.parse(JSON.parse((await target.store.read(`exports/${target.namespace}/fixture/g1/result.json`))!.toString('utf8')));
    assert.deepEqual(stored, result);
    assertResultWrittenLast(store.events);
    const archive = (await target.store.read(result.archiveKey))!;
    assert.equal(result.archiveKey, `exports/${target.namespace}/fixture/g1/bundle.zip`);
    assert.equal(archive.length, result.sizeBytes);
    assert.equal(createHash('sha256').update(archive).digest('hex'), result.sha256);
    assert.equal(result.pageCount, manifest.pages.length);
    assert.equal((await target.store.head(`exports/${target.namespace}/fixture/g1/files/index.html`))?.contentType, 'text/html; charset=utf-8');
  });

  it('crawls seeds, sitemaps, rendered links, redirects and retries, and reports what it could not export', () => {
    const paths = manifest.pages.map((p) => new URL(p.url).pathname).sort();
    for (const p of ['/', '/v1/en/', '/v1/en/install.html', '/v2/en/', '/v2/en/guide/', '/v2/en/guide/advanced.html', '/v2/fr/', '/v2/en/orphan.html', '/app/', '/app/intro', '/app/usage', '/slow/']) {
      assert.ok(paths.includes(p), `${p} missing from ${paths.join(', ')}`);
    }
    assert.ok(!paths.includes('/old-guide/'), 'a redirect is not a page of its own');
    assert.ok(sites.site.hits.get('/slow/')! >= 2, 'the slow page was retried after its timeout');
    assert.match(manifest.failed.find((f) => f.url.endsWith('/missing.html'))?.reason ?? '', /HTTP 404/);
    assert.ok(manifest.failed.some((f) => f.url.endsWith('/assets/img/does-not-exist.png')));
    const skipped = (needle: string): string => manifest.skipped.find((s) => s.url.includes(needle))?.reason ?? '';
    assert.match(skipped('127.0.0.2'), /not the origin or an allowed asset host/);
    assert.match(skipped('169.254.169.254'), /not the origin or an allowed asset host|refused/);
    assert.match(skipped('/downloads/big.zip'), /limit/);
    assert.ok(progressLines.some((l) => /\[render\]\s+\d+%/.test(l)));
  });

  it('downloads assets from pages, stylesheets, srcset, lazy attributes, icons and manifests, deduplicated by content', () => {
    const byUrl = (suffix: string): ExportManifest['assets'][number] | undefined =>
      manifest.assets.find((a) => a.url.endsWith(suffix) || a.aliases?.some((x) => x.endsWith(suffix)));
    for (const suffix of ['/assets/site.css', '/assets/theme.css?v=3', '/assets/print.css', '/fonts/inter.woff2', '/assets/img/bg.png', '/assets/img/logo@2x.png',
      '/assets/img/photo-640.png', '/assets/img/lazy.png', '/assets/img/poster.png', '/assets/img/hero.png', '/assets/icons.svg', '/site.webmanifest',
      '/font.css', '/font.woff2', '/ext-pic.png', '/downloads/guide.pdf']) {
      assert.ok(byUrl(suffix), `asset ${suffix} missing`);
    }
    const logo = byUrl('/assets/img/logo.png')!;
    assert.equal(byUrl('/assets/img/copy-of-logo.png'), logo, 'identical bytes are stored once');
    assert.equal(byUrl('/assets/app.js?v=42'), byUrl('/assets/app.js?v=43'));
    assert.ok(!manifest.assets.some((a) => a.url.includes('commented-out')));
    assert.ok(byUrl('/ext-pic.png')!.path.startsWith('_external/localhost_'));
  });

  it('rewrites pages: relative references, explicit index.html, fragments kept, no base/integrity/CSP/module scripts', async () => {
    const home = await exported(pagePath('/v2/en/'));
    assert.equal(pagePath('/v2/en/'), 'v2/en/index.html');
    assert.doesNotMatch(home, /module\.js/, 'module scripts are removed');
    assert.doesNotMatch(home, /<base\b|integrity=|crossorigin=|Content-Security-Policy|type="module"|modulepreload|preconnect/i);
    assert.match(home, /href="guide\/index\.html"/);
    assert.match(home, /href="guide\/advanced\.html#tuning"/);
    assert.match(home, /href="#install"/);
    assert.match(home, /href="\.\.\/fr\/index\.html"/);
    assert.match(home, /srcset="\.\.\/\.\.\/assets\/img\/logo\.png 1x, \.\.\/\.\.\/assets\/img\/logo@2x\.png 2x"/);
    assert.match(home, /data-src="\.\.\/\.\.\/assets\/img\/lazy\.png"/);
    assert.match(home, /poster="\.\.\/\.\.\/assets\/img\/poster\.png"/);
    assert.match(home, /<use href="#star"><\/use>/);
    assert.match(home, /data-docport-sprite=""><svg[^>]*><symbol id="star"/, "SVG sprites are inlined: file:// blocks external <use>");
    assert.match(home, /url\(&quot;\.\.\/\.\.\/assets\/img\/bg\.png&quot;\)/);
    assert.doesNotMatch(home, /127\.0\.0\.2|169\.254/, 'dropped resources leave no reference');
    assert.doesNotMatch(home, /<script[^>]*app\.q-/, 'a page that ran module scripts keeps its rendered DOM without scripts');
    assert.match(home, /Module script ran\./);
    const root = await exported('index.html');
    assert.match(root, /href="v2\/en\/guide\/index\.html">the old guide/, 'links to a redirect point at its target');
    assert.match(root, /href="https:\/\/example\.org\/docs"/, 'external links stay absolute');
    assert.doesNotMatch(root, /href="[^"]*missing\.html"/, 'a link to a failed page is removed');
    const advanced = await exported(pagePath('/v2/en/guide/advanced.html'));
    assert.match(advanced, /<script src="\.\.\/\.\.\/\.\.\/assets\/app\.q-[0-9a-f]{8}\.js"><\/script>/, 'classic scripts stay when the page fetched nothing');
    assert.equal((advanced.match(/Enhanced by app\.js/g) ?? []).length, 0, 'kept scripts get the served document, not their own output');
    assert.match(advanced, /href="index\.html"[^>]*>the guide/, 'references resolve against <base>');
    assert.match(advanced, /href="#tuning"[^>]*>self with fragment/);
    assert.match(advanced, /<iframe src="\.\.\/\.\.\/\.\.\/v1\/en\/install\.html"/);
    assert.doesNotMatch(advanced, /embed\.html/);
    const css = await exported('assets/site.css');
    assert.match(css, /@import url\("theme\.q-[0-9a-f]{8}\.css"\)/);
    assert.match(css, /url\("\.\.\/fonts\/inter\.woff2"\)/);
    assert.match(css, /image-set\("img\/logo\.png" 1x, "img\/logo@2x\.png" 2x\)/);
    const webmanifest = JSON.parse(await exported('site.webmanifest')) as { icons: Array<{ src: string }> };
    assert.deepEqual(webmanifest.icons.map((i) => i.src), ['assets/img/logo.png']);
    for (const page of manifest.pages) {
      const html = await exported(page.path);
      for (const m of html.matchAll(/<a\b[^>]*\bhref="([^"#]*)/g)) {
        const href = m[1]!;
        if (/^[a-z]+:/i.test(href) || href === '') continue;
        assert.ok(!href.endsWith('/'), `${page.path}: directory link ${href} must name index.html`);
      }
    }
    assert.ok(manifest.brokenReferences.some((b) => b.url === '#nowhere'));
  });

  it('replays over file:// with nothing loaded from outside and no broken link or fragment', async () => {
    const report = await replayExport(browser, tree, fileBase(tree), manifest.pages.map((p) => p.path));
    assert.deepEqual({ external: report.externalRequests, failed: report.failedRequests, broken: report.brokenLinks }, { external: [], failed: [], broken: [] });
    assert.equal(report.pages, manifest.pages.length);
    assert.ok(report.checkedLinks > 30);
  });

  it('replays over HTTP under a random sub-path just as well', async () => {
    const prefix = `/${randomBytes(4).toString('hex')}/docs/`;
    const server = await serveDirectory(tree, { prefix });
    try {
      const report = await replayExport(browser, tree, `${server.origin}${prefix}`, manifest.pages.map((p) => p.path));
      assert.deepEqual({ external: report.externalRequests, failed: report.failedRequests, broken: report.brokenLinks }, { external: [], failed: [], broken: [] });
    } finally {
      await server.close();
    }
  });

  it('shows the same text as the live site on sampled pages', async () => {
    const page = await browser.newPage();
    try {
      for (const urlPath of ['/v2/en/', '/v2/en/guide/advanced.html', '/app/intro', '/v2/fr/', '/']) {
        await page.goto(`${sites.site.origin}${urlPath}`, { waitUntil: 'networkidle' });
        const live = await visibleText(page);
        await page.goto(`${fileBase(tree)}${pagePath(urlPath)}`, { waitUntil: 'networkidle' });
        assert.equal(await visibleText(page), live, urlPath);
      }
    } finally {
      await page.close();
    }
  });

  it('ships an offline search box that works from file://', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${fileBase(tree)}v1/en/index.html`);
      await page.fill('#docport-search input', 'phoenix');
      const link = page.locator('#docport-search li a').first();
      await link.waitFor();
      const href = await link.getAttribute('href');
      assert.equal(href, '../../v2/en/guide/advanced.html#tuning');
      await link.click();
      await page.waitForURL(/advanced\.html#tuning$/);
      assert.equal(await page.title(), 'Advanced topics');
      assert.ok((await readdir(path.join(tree, '_docport'))).includes('search-index.js'));
    } finally {
      await page.close();
    }
  });

  it('puts heading sections into the search index of the domain and version', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ path: string; anchor: string | null; headings: string[]; language: string | null; tags: string[]; version: string; content: string }>(
        "SELECT path, anchor, headings, language, tags, version, content FROM search_sections WHERE domain = 'docs.fixture.test'");
      assert.equal(manifest.search.indexedSections, rows.length);
      assert.ok(rows.every((r) => r.version === 'v2'));
      const linux = rows.find((r) => r.anchor === 'install-linux');
      assert.deepEqual(linux?.headings, ['Version 2 documentation', 'Install', 'On Linux']);
      assert.equal(linux?.path, '/v2/en/');
      assert.deepEqual(linux?.tags, ['home', 'overview']);
      assert.equal(rows.find((r) => r.anchor === 'installer')?.language, 'fr');
      assert.deepEqual(rows.find((r) => r.anchor === 'tuning')?.tags, ['advanced', 'tuning']);
      assert.match(rows.find((r) => r.path === '/app/usage')?.content ?? '', /kraken client/);
    } finally {
      await client.end();
    }
  });

  it('reported progress and page count on the StaticExport status', async () => {
    const current = await target.staticExports.get(target.namespace, 'fixture');
    assert.equal(current?.status?.progress, 100);
    assert.equal(current?.status?.pageCount, manifest.pages.length);
    assert.equal(current?.status?.phase, undefined, 'the renderer never writes the phase');
    assert.ok(patches >= 2);
  });
});
