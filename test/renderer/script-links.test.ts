// A page whose classic scripts are kept is exported as served, but crawled as rendered:
// links its scripts add (menus, "next page" buttons) lead to pages of the export too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ExportManifest } from '../../src/renderer/output/manifest.js';
import { ProgressReporter } from '../../src/renderer/progress.js';
import { runExport } from '../../src/renderer/run-export.js';
import { chromiumFor, exportTarget, quietLogger, testSettings } from './support/export-env.js';
import { FIXTURES } from './support/fixture-site.js';
import { serveDirectory, type ServedSite } from './support/static-server.js';

const PAGES: Record<string, [string, string]> = {
  '/': ['text/html', '<!doctype html><title>Home</title><main><h1>Home</h1><a href="/static.html">static</a><nav id="menu"></nav></main><script src="/menu.js"></script>'],
  '/menu.js': ['text/javascript', "document.getElementById('menu').innerHTML = '<a href=\"/added.html\">added by a script</a>';"],
  '/static.html': ['text/html', '<!doctype html><title>Static</title><h1>Static</h1>'],
  '/added.html': ['text/html', '<!doctype html><title>Added</title><h1>Added</h1>'],
};

describe('pages with kept scripts', () => {
  let site: ServedSite;
  before(async () => {
    site = await serveDirectory(`${FIXTURES}docs`, {
      routes: (_req, res, pathname) => {
        const [type, body] = PAGES[pathname] ?? ['text/html', '<!doctype html><title>Not found</title>'];
        res.writeHead(PAGES[pathname] ? 200 : 404, { 'content-type': type }).end(body);
        return true;
      },
    });
  });
  after(() => site?.close());

  it('are crawled from the rendered DOM and exported as served', async () => {
    const target = await exportTarget('scripts', { domain: 'docs.scripts.test', origin: `${site.origin}/` });
    const settings = await testSettings();
    const log = quietLogger();
    const outputPrefix = `exports/${target.namespace}/scripts/g1/`;
    const result = await runExport(
      { namespace: target.namespace, name: 'scripts', generation: 1, domain: 'docs.scripts.test', origin: `${site.origin}/`, format: 'zip', outputPrefix },
      { store: target.store, settings, log, progress: new ProgressReporter(undefined, () => undefined, log), openBrowser: chromiumFor(settings, log) },
    );
    assert.equal(result.outcome, 'succeeded', JSON.stringify(result));
    const manifest = JSON.parse((await target.store.read(`${outputPrefix}manifest.json`))!.toString('utf8')) as ExportManifest;
    assert.deepEqual(manifest.pages.map((p) => new URL(p.url).pathname).sort(), ['/', '/added.html', '/static.html']);
    const home = (await target.store.read(`${outputPrefix}files/index.html`))!.toString('utf8');
    assert.match(home, /<script src="menu\.js"><\/script>/, 'the kept script stays');
    assert.match(home, /<nav id="menu"><\/nav>/, 'the served document, not the script output');
  });
});
