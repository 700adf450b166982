// The egress guarantees on real sockets and a real Chromium: redirects to a metadata
// address, the CONNECT (https) path, names that resolve to forbidden addresses, and
// WebRTC, which must not send UDP around the proxy.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ChromiumPagePool } from '../../src/adapters/playwright/chromium-page-pool.js';
import { CHROMIUM_ARGS } from '../../src/devenv/chromium.js';
import type { RenderOptions } from '../../src/renderer/browser-port.js';
import { DOM_POLICY, shouldRemoveScripts } from '../../src/renderer/html/dom-policy.js';
import { EgressProxy, type Refusal } from '../../src/renderer/net/egress-proxy.js';
import { HostPolicy } from '../../src/renderer/net/host-policy.js';
import { FetchError, HttpFetcher } from '../../src/renderer/net/http-fetcher.js';
import { requireEnv } from '../support/environment.js';
import { quietLogger } from './support/export-env.js';
import { FIXTURES } from './support/fixture-site.js';
import { serveDirectory, type ServedSite } from './support/static-server.js';

const METADATA = 'http://169.254.169.254/latest/meta-data/';
const options: RenderOptions = { mode: 'index', tokenPrefix: 'dptestx', policy: DOM_POLICY, wantResource: () => false, removeScripts: shouldRemoveScripts };

/** Status of a CONNECT through the proxy (200 means a tunnel was opened). */
const connectVia = (proxy: EgressProxy, authority: string): Promise<number> => new Promise((resolve, reject) => {
  const p = new URL(proxy.url);
  const req = request({ host: p.hostname, port: p.port, method: 'CONNECT', path: authority });
  req.on('connect', (res, socket) => {
    socket.destroy();
    resolve(res.statusCode ?? 0);
  });
  req.on('error', reject);
  req.end();
});

/** A page pool as the renderer runs it: production flags, every request through the proxy. */
async function withBrowser(policy: HostPolicy, refusals: Refusal[], body: (pool: ChromiumPagePool) => Promise<void>): Promise<void> {
  const proxy = await EgressProxy.start(policy, true, (r) => refusals.push(r));
  const pool = new ChromiumPagePool({ executablePath: requireEnv('DOCPORT_CHROMIUM_PATH', 'Chromium'), args: CHROMIUM_ARGS, proxyServer: proxy.url, size: 1, timeoutMs: 5000, quietMs: 100, log: quietLogger() });
  try {
    await body(pool);
  } finally {
    await pool.close();
    await proxy.close();
  }
}

describe('egress guards', () => {
  let site: ServedSite;
  let udp: Socket;
  let udpPackets = 0;
  before(async () => {
    udp = createSocket('udp4').on('message', () => void udpPackets++);
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const stun = `stun:127.0.0.1:${udp.address().port}`;
    site = await serveDirectory(`${FIXTURES}docs`, {
      routes: (_req, res, pathname) => {
        if (pathname === '/to-metadata') res.writeHead(302, { location: METADATA }).end();
        else if (pathname === '/webrtc/') {
          res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>rtc</title><script>
            const pc = new RTCPeerConnection({ iceServers: [{ urls: '${stun}' }] });
            pc.createDataChannel('x');
            pc.createOffer().then((offer) => pc.setLocalDescription(offer));
          </script>`);
        } else return false;
        return true;
      },
    });
  });
  after(async () => {
    udp?.close();
    await site?.close();
  });

  it('refuses a redirect from the origin to the metadata address, in Node and in the browser', async () => {
    const fetcher = new HttpFetcher(new HostPolicy(site.origin, ['169.254.169.254']), true, 5000);
    try {
      await assert.rejects(fetcher.get(`${site.origin}/to-metadata`, 1000), (e: unknown) => e instanceof FetchError && e.reason === 'refused' && /metadata address/.test(e.message));
    } finally {
      fetcher.close();
    }
    const refusals: Refusal[] = [];
    await withBrowser(new HostPolicy(site.origin, ['169.254.169.254']), refusals, async (pool) => {
      const load = await pool.render(`${site.origin}/to-metadata`, options);
      assert.deepEqual({ status: load.status, snapshot: load.snapshot }, { status: 403, snapshot: undefined }, 'the proxy answered the redirect target');
    });
    assert.ok(refusals.some((r) => r.url.startsWith('http://169.254.169.254/') && /metadata address/.test(r.reason)), JSON.stringify(refusals));
  });

  it('keeps WebRTC from sending UDP around the proxy', async () => {
    await withBrowser(new HostPolicy(site.origin, []), [], async (pool) => {
      // Without the IP handling policy Chromium sends STUN binding requests straight to the server.
      await pool.render(`${site.origin}/webrtc/`, options);
      await new Promise((r) => setTimeout(r, 500));
    });
    assert.equal(udpPackets, 0, 'no UDP packet left the browser');
  });

  it('refuses forbidden hosts on the CONNECT path, and names that resolve to forbidden addresses', async () => {
    const refusals: Refusal[] = [];
    const port = new URL(site.origin).port;
    const policy = new HostPolicy(`http://localhost:${port}/`, ['169.254.169.254']);
    const proxy = await EgressProxy.start(policy, false, (r) => refusals.push(r));
    try {
      assert.equal(await connectVia(proxy, '169.254.169.254:443'), 403);
      assert.equal(await connectVia(proxy, 'evil.example:443'), 403);
      assert.notEqual(await connectVia(proxy, `localhost:${port}`), 200, 'localhost resolves to loopback: no tunnel');
      assert.ok(refusals.some((r) => r.url.includes('evil.example') && /not the origin/.test(r.reason)));
      assert.ok(refusals.some((r) => r.url.includes(`localhost:${port}`) && /loopback address .* refused/.test(r.reason)), JSON.stringify(refusals));
    } finally {
      await proxy.close();
    }
    const fetcher = new HttpFetcher(policy, false, 5000);
    try {
      await assert.rejects(fetcher.get(`http://localhost:${port}/v1/en/`, 100_000),
        (e: unknown) => e instanceof FetchError && e.reason === 'refused' && /localhost: loopback address .* refused/.test(e.message));
    } finally {
      fetcher.close();
    }
  });
});
