import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { RunningApi } from '../../src/api/server.js';
import { startApiHarness, type ApiHarness, type Reply, type Tenant } from './support/api-harness.js';
import { loadContract, type Contract } from './support/contract.js';

const SEARCH_LIMIT = 25;

describe('per-organization hourly rate limits, exact across two API replicas', () => {
  let h: ApiHarness;
  let replica: RunningApi;
  let contract: Contract;

  before(async () => {
    h = await startApiHarness({ env: { RATE_LIMIT_SEARCH_PER_HOUR: String(SEARCH_LIMIT) } });
    replica = await h.replica();
    contract = await loadContract(h.api.url);
  });

  /** Windows are clock hours of the database: keep a burst away from the boundary. */
  async function awayFromHourBoundary(): Promise<void> {
    const { rows } = await h.pool.query<{ left: number }>(`SELECT extract(epoch FROM date_trunc('hour', now(), 'UTC') + interval '1 hour' - now())::float AS left`);
    if (rows[0]!.left < 10) await new Promise((r) => setTimeout(r, rows[0]!.left * 1000 + 500));
  }

  /** Fires all requests at once, alternating between the two replicas. */
  async function burst(count: number, send: (base: string, i: number) => Promise<Reply>): Promise<Reply[]> {
    await awayFromHourBoundary();
    return Promise.all(Array.from({ length: count }, (_, i) => send(i % 2 === 0 ? h.api.url : replica.url, i)));
  }

  const header = (reply: Reply, name: string): number => Number(reply.headers.get(name));

  it('lets exactly 100 analytics requests through per hour, shared by all analytics calls of the organization', async () => {
    const acme: Tenant = await h.tenant('free');
    const second = await h.identity.createProject({ organizationId: acme.org.id, domain: `second.${acme.project.domain}`, origin: 'https://second.example.com/' });
    const replies = await burst(130, (base, i) =>
      h.call('GET', `/v1/analytics/${i % 3 === 0 ? second.id : acme.project.id}/assistant/caller-stats`, { key: acme.adminKey, base }));
    const ok = replies.filter((r) => r.status === 200);
    const limited = replies.filter((r) => r.status === 429);
    assert.equal(ok.length, 100);
    assert.equal(limited.length, 30);
    // Each success saw a distinct remaining count: no two requests took the same unit.
    assert.deepEqual(ok.map((r) => header(r, 'ratelimit-remaining')).sort((a, b) => a - b), Array.from({ length: 100 }, (_, i) => i));
    for (const r of ok) assert.equal(header(r, 'ratelimit-limit'), 100);
    const refusal = limited[0]!;
    contract.check(refusal, 'GET', '/v1/analytics/{projectId}/assistant/caller-stats');
    assert.equal(header(refusal, 'ratelimit-remaining'), 0);
    const reset = header(refusal, 'ratelimit-reset');
    assert.ok(reset >= 1 && reset <= 3600, `reset ${reset}`);
    assert.equal(header(refusal, 'retry-after'), reset);
    assert.match((refusal.json as { error: string }).error, /^rate limit exceeded: 100 analytics requests per hour/);
    const { rows } = await h.pool.query<{ n: number }>('SELECT used FROM rate_limit_windows WHERE organization_id = $1 AND family = $2', [acme.org.id, 'analytics']);
    assert.deepEqual(rows, [{ used: 100 }]);

    // Other families of the same organization and other organizations keep their own budgets.
    const search = await h.call('POST', `/discovery/v1/search/${acme.project.domain}`, { key: acme.assistantKey, body: { query: 'x' } });
    assert.equal(search.status, 200);
    assert.equal(header(search, 'ratelimit-limit'), SEARCH_LIMIT);
    const other = await h.tenant('free');
    assert.equal((await h.call('GET', `/v1/analytics/${other.project.id}/assistant/caller-stats`, { key: other.adminKey, base: replica.url })).status, 200);
  });

  it('holds the search limit exactly across replicas too', async () => {
    const acme = await h.tenant('free');
    const replies = await burst(SEARCH_LIMIT + 15, (base) =>
      h.call('POST', `/discovery/v1/search/${acme.project.domain}`, { key: acme.assistantKey, body: { query: 'install' }, base }));
    assert.equal(replies.filter((r) => r.status === 200).length, SEARCH_LIMIT);
    assert.equal(replies.filter((r) => r.status === 429).length, 15);
    const refusal = replies.find((r) => r.status === 429)!;
    assert.equal(refusal.headers.get('access-control-allow-origin'), '*');
    assert.ok(header(refusal, 'retry-after') >= 1);
  });

  it('sends the export limit (1000 per hour by default) on export calls', async () => {
    const acme = await h.tenant('enterprise');
    const reply = await h.call('POST', '/v1/static-export/jobs', { key: acme.adminKey, body: { domain: acme.project.domain } });
    assert.equal(reply.status, 202);
    assert.equal(header(reply, 'ratelimit-limit'), 1000);
    assert.equal(header(reply, 'ratelimit-remaining'), 999);
  });

  it('does not count requests refused by authentication or validation', async () => {
    const acme = await h.tenant('free');
    for (const query of ['?dateFrom=nope', '?dateFrom=2024-03-02&dateTo=2024-03-01']) {
      assert.equal((await h.call('GET', `/v1/analytics/${acme.project.id}/assistant/caller-stats${query}`, { key: acme.adminKey })).status, 400);
    }
    assert.equal((await h.call('GET', `/v1/analytics/${acme.project.id}/assistant/caller-stats`, { key: acme.assistantKey })).status, 403);
    const { rows } = await h.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rate_limit_windows WHERE organization_id = $1', [acme.org.id]);
    assert.equal(rows[0]!.n, 0);
    const first = await h.call('GET', `/v1/analytics/${acme.project.id}/assistant/caller-stats`, { key: acme.adminKey });
    assert.equal(header(first, 'ratelimit-remaining'), 99);
  });
});
