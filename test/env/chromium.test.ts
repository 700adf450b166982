// Proof that Playwright drives Debian's Chromium (no browser download) on a local page.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS } from '../../src/devenv/chromium.js';
import { requireEnv } from '../support/environment.js';

describe('Chromium through Playwright', () => {
  const server = createServer((req, res) => {
    if (req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end('document.getElementById("out").textContent = "rendered by " + navigator.userAgent.includes("Chrome") + " script";');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Local page</title><p id="out">not yet</p><script src="/app.js"></script>');
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('renders a local page and runs its scripts', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const browser = await chromium.launch({ executablePath: requireEnv('DOCPORT_CHROMIUM_PATH', 'Chromium'), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
      assert.equal(await page.title(), 'Local page');
      assert.equal(await page.textContent('#out'), 'rendered by true script');
      const png = await page.screenshot();
      assert.ok(png.subarray(1, 4).toString() === 'PNG' && png.length > 1000);
    } finally {
      await browser.close();
    }
  });
});
