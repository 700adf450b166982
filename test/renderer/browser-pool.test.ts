// The Playwright adapter on its own: pooled pages, timeouts, and a Chromium that dies
// mid-crawl being relaunched (a real SIGKILL of the real browser process).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { ChromiumPagePool } from '../../src/adapters/playwright/chromium-page-pool.js';
import { PageRenderError, type RenderOptions } from '../../src/renderer/browser-port.js';
import { CHROMIUM_ARGS } from '../../src/devenv/chromium.js';
import { DOM_POLICY, shouldRemoveScripts } from '../../src/renderer/html/dom-policy.js';
import { requireEnv } from '../support/environment.js';
import { quietLogger } from './support/export-env.js';
import { startFixtureSites, type FixtureSites } from './support/fixture-site.js';

const options: RenderOptions = { mode: 'export', tokenPrefix: 'dptestx', policy: DOM_POLICY, wantResource: () => true, removeScripts: shouldRemoveScripts };

function chromiumPids(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((l) => /chrom/i.test(l) && l.includes('--remote-debugging-pipe')).map((l) => Number(l.trim().split(/\s+/)[0]));
}

describe('Chromium page pool', () => {
  let sites: FixtureSites;
  let pool: ChromiumPagePool;
  before(async () => {
    sites = await startFixtureSites(3000);
    pool = new ChromiumPagePool({ executablePath: requireEnv('DOCPORT_CHROMIUM_PATH', 'Chromium'), args: CHROMIUM_ARGS, size: 2, timeoutMs: 1500, quietMs: 100, log: quietLogger() });
  });
  after(async () => {
    await pool?.close();
    await sites?.close();
  });

  it('renders pages in parallel on warm pages and tokenizes the DOM', async () => {
    const [home, fr] = await Promise.all([pool.render(`${sites.site.origin}/v2/en/`, options), pool.render(`${sites.site.origin}/v2/fr/`, options)]);
    assert.equal(home.status, 200);
    assert.equal(fr.snapshot?.lang, 'fr');
    assert.ok(home.snapshot?.scriptsRemoved, 'module script and no fetch: scripts removed');
    assert.match(home.snapshot?.html ?? '', /href="dptestx\d+-"/);
    assert.ok(home.snapshot?.references.some((r) => r.kind === 'srcset' && r.value.includes('logo@2x.png')));
    assert.ok(home.resources.some((r) => r.url.endsWith('/assets/site.css') && r.body.length > 0), 'loaded bodies are captured');
    assert.ok(home.snapshot?.ids.includes('install-linux'));
  });

  it('fails a page that does not load in time with a retriable timeout, then renders it', async () => {
    await assert.rejects(pool.render(`${sites.site.origin}/slow/`, options), (e: unknown) => e instanceof PageRenderError && e.reason === 'timeout' && e.retriable);
    const second = await pool.render(`${sites.site.origin}/slow/`, options);
    assert.equal(second.snapshot?.title, 'Slow page');
  });

  it('relaunches Chromium after it is killed and keeps rendering', async () => {
    await pool.render(`${sites.site.origin}/v1/en/`, options);
    const launchesBefore = pool.launches;
    const pids = chromiumPids();
    assert.ok(pids.length > 0, 'found the browser process');
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const outcomes = await Promise.allSettled([pool.render(`${sites.site.origin}/v1/en/install.html`, options)]);
    // The render racing the crash may fail (retriable 'crash'); the next one must work on a new browser.
    const [racing] = outcomes;
    if (racing?.status === 'rejected') {
      assert.ok(racing.reason instanceof PageRenderError && racing.reason.retriable, String(racing.reason));
    }
    const after = await pool.render(`${sites.site.origin}/v1/en/install.html`, options);
    assert.equal(after.snapshot?.title, 'Installing version 1');
    assert.equal(pool.launches, launchesBefore + 1);
  });

  it('reports a non-HTML navigation so the crawler stores it as a file', async () => {
    const load = await pool.render(`${sites.site.origin}/site.webmanifest`, options).catch((e: unknown) => e);
    const notHtml = load instanceof PageRenderError ? load.reason === 'not-html' : !(load as { snapshot?: unknown }).snapshot;
    assert.ok(notHtml);
  });
});
