// Security: which hosts and addresses the renderer may reach, checked on the pure policy
// and on the real egress proxy and fetcher (nothing leaves loopback in these tests).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { classifyAddress, refusedAddress } from '../../src/renderer/net/address-policy.js';
import { EgressProxy, type Refusal } from '../../src/renderer/net/egress-proxy.js';
import { HostPolicy } from '../../src/renderer/net/host-policy.js';
import { FetchError, HttpFetcher } from '../../src/renderer/net/http-fetcher.js';
import { serveDirectory, type ServedSite } from './support/static-server.js';
import { FIXTURES } from './support/fixture-site.js';

describe('address policy', () => {
  it('classifies addresses, including mapped and metadata ones', () => {
    const cases: Array<[string, string]> = [
      ['8.8.8.8', 'public'], ['127.0.0.1', 'loopback'], ['10.1.2.3', 'private'], ['172.20.0.1', 'private'], ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'], ['169.254.169.254', 'metadata'], ['169.254.1.1', 'link-local'], ['0.0.0.0', 'unspecified'],
      ['224.0.0.1', 'multicast'], ['::1', 'loopback'], ['::', 'unspecified'], ['fe80::1', 'link-local'], ['fd12::1', 'private'],
      ['::ffff:169.254.169.254', 'metadata'], ['::ffff:127.0.0.1', 'loopback'], ['fd00:ec2::254', 'metadata'], ['2001:db8::1', 'public'],
      ['64:ff9b::a9fe:a9fe', 'metadata'],
    ];
    for (const [ip, kind] of cases) assert.equal(classifyAddress(ip), kind, ip);
  });

  it('judges IPv6 forms that embed an IPv4 address by that address, and refuses reserved ranges', () => {
    const cases: Array<[string, string]> = [
      ['::169.254.169.254', 'metadata'], ['::127.0.0.1', 'loopback'], ['::a9fe:a9fe', 'metadata'], ['::8.8.8.8', 'public'], // IPv4-compatible
      ['::ffff:0:a9fe:a9fe', 'metadata'], ['::ffff:0:169.254.169.254', 'metadata'], ['::ffff:0:a00:1', 'private'], // SIIT
      ['2002:a9fe:a9fe::', 'metadata'], ['2002:7f00:1::1', 'loopback'], ['2002:808:808::1', 'public'], // 6to4
      ['fec0::1', 'reserved'], ['feff::1', 'reserved'], // site-local
      ['198.18.0.1', 'reserved'], ['198.19.255.255', 'reserved'], ['198.20.0.1', 'public'], ['192.0.0.8', 'reserved'], ['192.0.1.1', 'public'],
    ];
    for (const [ip, kind] of cases) assert.equal(classifyAddress(ip), kind, ip);
    for (const ip of ['::169.254.169.254', '::ffff:0:a9fe:a9fe', '2002:a9fe:a9fe::', 'fec0::1', '198.18.0.1', '192.0.0.8']) {
      assert.notEqual(refusedAddress(ip, true), undefined, `${ip} refused even with private networks allowed`);
    }
  });

  it('allows private and loopback only when configured; link-local and metadata never', () => {
    assert.match(refusedAddress('127.0.0.1', false) ?? '', /RENDER_ALLOW_PRIVATE_NETWORKS/);
    assert.equal(refusedAddress('127.0.0.1', true), undefined);
    assert.equal(refusedAddress('10.0.0.1', true), undefined);
    assert.match(refusedAddress('169.254.169.254', true) ?? '', /metadata/);
    assert.match(refusedAddress('fe80::1', true) ?? '', /link-local/);
    assert.equal(refusedAddress('93.184.216.34', false), undefined);
  });

  it('allows the origin host and port and the configured asset hosts only', () => {
    const policy = new HostPolicy('https://docs.example.com/guide/', ['fonts.example.net', 'cdn.example.org:8443']);
    assert.equal(policy.refusal('https://docs.example.com/x'), undefined);
    assert.match(policy.refusal('https://docs.example.com:8443/x') ?? '', /not the origin/);
    assert.equal(policy.refusal('https://fonts.example.net/a.woff2'), undefined);
    assert.equal(policy.refusal('http://fonts.example.net/a.woff2'), undefined);
    assert.equal(policy.refusal('https://cdn.example.org:8443/a.js'), undefined);
    assert.match(policy.refusal('https://cdn.example.org/a.js') ?? '', /not the origin/);
    assert.match(policy.refusal('https://evil.example/a.js') ?? '', /not the origin/);
    assert.match(policy.refusal('http://metadata.google.internal/') ?? '', /metadata host/);
    assert.match(policy.refusal('ftp://docs.example.com/') ?? '', /scheme/);
  });
});

describe('egress proxy and fetcher enforce the policy on real sockets', () => {
  let site: ServedSite;
  before(async () => {
    site = await serveDirectory(`${FIXTURES}docs`);
  });
  after(() => site?.close());

  const viaProxy = (proxy: EgressProxy, url: string): Promise<number> => new Promise((resolve, reject) => {
    const p = new URL(proxy.url);
    const req = request({ host: p.hostname, port: p.port, path: url, headers: { host: new URL(url).host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });

  it('forwards to the origin and refuses other hosts and forbidden addresses, even when listed as asset hosts', async () => {
    const refusals: Refusal[] = [];
    const policy = new HostPolicy(site.origin, ['169.254.169.254', 'example.invalid']);
    const proxy = await EgressProxy.start(policy, true, (r) => refusals.push(r));
    try {
      assert.equal(await viaProxy(proxy, `${site.origin}/v1/en/`), 200);
      assert.equal(await viaProxy(proxy, 'http://127.0.0.2:9/x'), 403);
      assert.equal(await viaProxy(proxy, 'http://169.254.169.254/latest/meta-data/'), 403, 'an allowed host name does not make a metadata address reachable');
      assert.equal(await viaProxy(proxy, 'http://[::ffff:169.254.169.254]/latest/'), 403);
      assert.ok(refusals.some((r) => r.url.startsWith('http://127.0.0.2') && /not the origin/.test(r.reason)));
      assert.ok(refusals.some((r) => r.url.startsWith('http://169.254.169.254') && /metadata address/.test(r.reason)));
    } finally {
      await proxy.close();
    }
    const strict = await EgressProxy.start(new HostPolicy(site.origin, []), false, (r) => refusals.push(r));
    try {
      assert.equal(await viaProxy(strict, `${site.origin}/v1/en/`), 403, 'loopback refused unless allowed');
    } finally {
      await strict.close();
    }
  });

  it('fetches with limits and re-checks every redirect hop', async () => {
    const fetcher = new HttpFetcher(new HostPolicy(site.origin, ['169.254.169.254']), true, 5000);
    try {
      const ok = await fetcher.get(`${site.origin}/v1/en`, 1_000_000);
      assert.equal(ok.url, `${site.origin}/v1/en/`);
      await assert.rejects(fetcher.get(`${site.origin}/downloads/big.zip`, 1000), (e: unknown) => e instanceof FetchError && e.reason === 'too-large');
      await assert.rejects(fetcher.get('http://169.254.169.254/latest/', 1000), (e: unknown) => e instanceof FetchError && e.reason === 'refused' && /metadata/.test(e.message));
      await assert.rejects(fetcher.get('http://127.0.0.2:9/', 1000), (e: unknown) => e instanceof FetchError && e.reason === 'refused');
      await assert.rejects(fetcher.get(`${site.origin}/nope.png`, 1000), (e: unknown) => e instanceof FetchError && e.status === 404 && e.permanent);
    } finally {
      fetcher.close();
    }
  });
});
