import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { startApiHarness, type ApiHarness, type Reply, type Tenant } from './support/api-harness.js';
import { loadContract, type Contract } from './support/contract.js';

const ROUTE = '/discovery/v1/search/{domain}';

interface Hit { content: string; path: string; metadata: { score: number; title: string; headings: string[]; anchor: string | null; version: string | null; language: string | null; tags: string[] } }

describe('POST search: full-text over indexed sections, filtered, thresholded, ordered by score', () => {
  let h: ApiHarness;
  let contract: Contract;
  let acme: Tenant;
  let other: Tenant;
  let search: (body: unknown, tenant?: Tenant, domain?: string) => Promise<Reply>;

  before(async () => {
    h = await startApiHarness();
    contract = await loadContract(h.api.url);
    acme = await h.tenant('free');
    other = await h.tenant('free');
    search = async (body, tenant = acme, domain = tenant.project.domain) => {
      const reply = await h.call('POST', `/discovery/v1/search/${domain}`, { key: tenant.assistantKey, body });
      contract.check(reply, 'POST', ROUTE);
      return reply;
    };
    const domain = acme.project.domain;
    await h.searchIndex.replaceSections(domain, 'v1', [
      { path: '/install/', anchor: 'linux', title: 'Installing Docport', headings: ['Installing Docport', 'On Linux'], content: 'Install the package with apt and start the service.', language: 'en', tags: ['setup'] },
      { path: '/install/', anchor: 'macos', title: 'Installing Docport', headings: ['Installing Docport', 'On macOS'], content: 'Use Homebrew to install it on a Mac.', language: 'en', tags: ['setup', 'mac'] },
      { path: '/de/install/', title: 'Docport installieren', headings: ['Docport installieren'], content: 'Installieren Sie das Paket mit apt (install).', language: 'de', tags: ['setup'] },
      { path: '/api/', title: 'API reference', headings: ['API reference', 'Keys'], content: 'Every request needs an API key.', language: 'en', tags: ['reference'] },
    ]);
    await h.searchIndex.replaceSections(domain, 'v2', [
      { path: '/install/', anchor: 'linux', title: 'Installing Docport', headings: ['Installing Docport', 'On Linux'], content: 'Install the v2 package with apt.', language: 'en', tags: ['setup'] },
    ]);
    await h.searchIndex.replaceSections(domain, undefined, [
      { path: '/changelog/', title: 'Changelog', headings: ['Changelog'], content: 'The install script moved.', tags: [] },
    ]);
    await h.searchIndex.replaceSections(other.project.domain, undefined, [
      { path: '/secret/', title: 'Other organization', headings: ['Other'], content: 'install secrets of another organization', tags: [] },
    ]);
  });

  it('returns sections ordered by score with their metadata; title matches outrank body matches', async () => {
    const reply = await search({ query: 'install' });
    assert.equal(reply.status, 200, reply.text);
    const hits = reply.json as Hit[];
    assert.equal(hits.length, 5);
    const scores = hits.map((x) => x.metadata.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
    assert.ok(scores.every((s) => s > 0 && s < 1));
    assert.equal(hits.at(-1)!.metadata.title, 'Changelog', 'a body-only match ranks below title matches');
    const linux = hits.find((x) => x.metadata.anchor === 'linux' && x.metadata.version === 'v1')!;
    assert.deepEqual(linux, {
      content: 'Install the package with apt and start the service.', path: '/install/',
      metadata: { score: linux.metadata.score, title: 'Installing Docport', headings: ['Installing Docport', 'On Linux'], anchor: 'linux', version: 'v1', language: 'en', tags: ['setup'] },
    });
    const changelog = hits.find((x) => x.path === '/changelog/')!;
    assert.deepEqual({ version: changelog.metadata.version, language: changelog.metadata.language, anchor: changelog.metadata.anchor }, { version: null, language: null, anchor: null });
    assert.ok(!hits.some((x) => x.path === '/secret/'), 'never another domain\'s sections');
  });

  it('applies the version, language and tag filters, alone and together', async () => {
    const paths = async (filter: object): Promise<string[]> =>
      ((await search({ query: 'install', filter })).json as Hit[]).map((x) => `${x.metadata.version ?? '-'}:${x.path}${x.metadata.anchor ? `#${x.metadata.anchor}` : ''}`).sort();
    assert.deepEqual(await paths({ version: 'v2' }), ['v2:/install/#linux']);
    assert.deepEqual(await paths({ language: 'de' }), ['v1:/de/install/']);
    assert.deepEqual(await paths({ tag: 'mac' }), ['v1:/install/#macos']);
    assert.deepEqual(await paths({ version: 'v1', language: 'en', tag: 'setup' }), ['v1:/install/#linux', 'v1:/install/#macos']);
    assert.deepEqual(await paths({ version: 'v9' }), []);
  });

  it('keeps only scores >= scoreThreshold, the threshold itself included', async () => {
    const all = (await search({ query: 'install' })).json as Hit[];
    const cut = all[2]!.metadata.score;
    const kept = (await search({ query: 'install', scoreThreshold: cut })).json as Hit[];
    assert.deepEqual(kept.map((x) => x.metadata.score), all.filter((x) => x.metadata.score >= cut).map((x) => x.metadata.score));
    assert.ok(kept.length >= 3 && kept.length < all.length);
    assert.deepEqual((await search({ query: 'install', scoreThreshold: 1 })).json, []);
  });

  it('returns at most pageSize results, the best ones (default 10)', async () => {
    const all = (await search({ query: 'install' })).json as Hit[];
    const two = (await search({ query: 'install', pageSize: 2 })).json as Hit[];
    assert.deepEqual(two, all.slice(0, 2));
    await h.searchIndex.replaceSections(acme.project.domain, 'many', Array.from({ length: 30 }, (_, i) => ({ path: `/p${i}/`, title: `Page ${i}`, headings: [`Page ${i}`], content: 'install', tags: [] })));
    assert.equal(((await search({ query: 'install' })).json as Hit[]).length, 10);
    assert.equal(((await search({ query: 'install', pageSize: 50 })).json as Hit[]).length, 35);
  });

  it('handles web-search syntax and queries without searchable words', async () => {
    assert.deepEqual(((await search({ query: '"api key"' })).json as Hit[]).map((x) => x.path), ['/api/']);
    assert.ok(!((await search({ query: 'install -homebrew' })).json as Hit[]).some((x) => x.metadata.anchor === 'macos'));
    const stop = await search({ query: 'the and of' });
    assert.equal(stop.status, 200);
    assert.deepEqual(stop.json, []);
    assert.deepEqual((await search({ query: 'zebra))(("' })).json, []);
  });

  it('answers 404 for an unknown domain and for another organization\'s domain, with the same message', async () => {
    const unknown = await search({ query: 'install' }, acme, 'unknown.example.com');
    assert.equal(unknown.status, 404);
    const foreign = await search({ query: 'install' }, acme, other.project.domain);
    assert.equal(foreign.status, 404);
    assert.equal((foreign.json as { error: string }).error, `domain ${other.project.domain} not found`);
  });

  it('answers 400 naming the field for bad bodies and path params', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^body\.query: required/],
      [{ query: '   ' }, /^body\.query: must not be empty/],
      [{ query: 'x', pageSize: 0 }, /^body\.pageSize: /],
      [{ query: 'x', pageSize: 51 }, /^body\.pageSize: /],
      [{ query: 'x', pageSize: 2.5 }, /^body\.pageSize: /],
      [{ query: 'x', scoreThreshold: 1.5 }, /^body\.scoreThreshold: /],
      [{ query: 'x', scoreThreshold: '0.5' }, /^body\.scoreThreshold: .*expected number/],
      [{ query: 'x', filter: { tag: 3 } }, /^body\.filter\.tag: /],
      [{ query: 'x', filter: { version: 'no spaces' } }, /^body\.filter\.version: /],
      [{ query: 'x', filters: {} }, /^body: Unrecognized key/],
      [[], /^body: .*expected object/],
    ];
    for (const [body, message] of cases) {
      const reply = await search(body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.match((reply.json as { details: Array<{ message: string }> }).details[0]!.message, message, JSON.stringify(body));
    }
    const badDomain = await search({ query: 'x' }, acme, 'Not_A_Domain');
    assert.equal(badDomain.status, 400);
    assert.match((badDomain.json as { details: Array<{ message: string }> }).details[0]!.message, /^params\.domain: /);
  });

  it('allows any origin (CORS) with a preflight, and exposes the rate-limit headers', async () => {
    const preflight = await h.call('OPTIONS', `/discovery/v1/search/${acme.project.domain}`, {
      headers: { origin: 'https://docs.customer.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-methods')!, /POST/);
    assert.match(preflight.headers.get('access-control-allow-headers')!, /Authorization/);
    const reply = await h.call('POST', `/discovery/v1/search/${acme.project.domain}`, { key: acme.assistantKey, body: { query: 'install' }, headers: { origin: 'https://docs.customer.example' } });
    assert.equal(reply.headers.get('access-control-allow-origin'), '*');
    assert.match(reply.headers.get('access-control-expose-headers')!, /RateLimit-Remaining/);
    const refused = await h.call('POST', `/discovery/v1/search/${acme.project.domain}`, { key: 'dps_not-a-real-key', body: { query: 'x' } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('access-control-allow-origin'), '*', 'errors are readable by the page too');
    const admin = await h.call('GET', `/v1/analytics/${acme.project.id}/assistant/caller-stats`, { key: acme.adminKey, headers: { origin: 'https://evil.example' } });
    assert.equal(admin.headers.get('access-control-allow-origin'), null, 'admin endpoints send no CORS headers');
  });
});
