// Closing the page pool while Chromium is still starting must not leave a browser
// behind, and a closed pool refuses work with a final (non-retriable) PageRenderError.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { ChromiumPagePool } from '../../src/adapters/playwright/chromium-page-pool.js';
import { CHROMIUM_ARGS } from '../../src/devenv/chromium.js';
import { PageRenderError, type RenderOptions } from '../../src/renderer/browser-port.js';
import { DOM_POLICY, shouldRemoveScripts } from '../../src/renderer/html/dom-policy.js';
import { requireEnv } from '../support/environment.js';
import { quietLogger } from './support/export-env.js';
import { startFixtureSites, type FixtureSites } from './support/fixture-site.js';

const options: RenderOptions = { mode: 'export', tokenPrefix: 'dptestx', policy: DOM_POLICY, wantResource: () => true, removeScripts: shouldRemoveScripts };

/** Live browsers started by this test process (exited ones are gone or defunct, without arguments). */
function browserPids(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((l) => /chrom/i.test(l) && l.includes('--remote-debugging-pipe')).map((l) => Number(l.trim().split(/\s+/)[0]));
}

const isFinal = (e: unknown): boolean => e instanceof PageRenderError && !e.retriable;

describe('Chromium page pool shutdown', () => {
  let sites: FixtureSites;
  before(async () => {
    sites = await startFixtureSites();
  });
  after(() => sites?.close());

  it('closed while Chromium starts: no browser is left, and renders fail for good', async () => {
    assert.deepEqual(browserPids(), []);
    const pool = new ChromiumPagePool({ executablePath: requireEnv('DOCPORT_CHROMIUM_PATH', 'Chromium'), args: CHROMIUM_ARGS, size: 1, timeoutMs: 5000, quietMs: 50, log: quietLogger() });
    const rendering = pool.render(`${sites.site.origin}/v1/en/`, options).then(() => 'rendered', (e: unknown) => e);
    await pool.close(); // the launch of the first render is under way
    assert.ok(isFinal(await rendering), 'the render that was starting fails, without retry');
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(browserPids(), [], 'no Chromium outlives the pool');
    await assert.rejects(pool.render(`${sites.site.origin}/v1/en/`, options), isFinal);
  });
});
