import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { CallerType } from '../../src/analytics/assistant-events.js';
import { startApiHarness, type ApiHarness, type Reply, type Tenant } from './support/api-harness.js';
import { loadContract, type Contract } from './support/contract.js';

const ROUTE = '/v1/analytics/{projectId}/assistant/caller-stats';
// The API's clock is fixed, so the defaults (the 30 days before now) are checkable.
const NOW = new Date('2024-04-01T00:00:00Z');

describe('GET caller-stats: counts by caller type over [dateFrom, dateTo)', () => {
  let h: ApiHarness;
  let contract: Contract;
  let acme: Tenant;
  let other: Tenant;
  let stats: (query: string, tenant?: Tenant, projectId?: string) => Promise<Reply>;

  const at = (iso: string, caller: CallerType, projectId = acme.project.id) => ({ projectId, occurredAt: new Date(iso), caller });

  before(async () => {
    h = await startApiHarness({ clock: () => NOW });
    contract = await loadContract(h.api.url);
    acme = await h.tenant('free');
    other = await h.tenant('free');
    stats = async (query, tenant = acme, projectId = tenant.project.id) => {
      const path = `/v1/analytics/${projectId}/assistant/caller-stats${query}`;
      const reply = await h.call('GET', path, { key: tenant.adminKey });
      contract.check(reply, 'GET', ROUTE);
      return reply;
    };
    await h.events.record([
      at('2024-02-29T23:59:59.999Z', 'web'),
      at('2024-03-01T00:00:00Z', 'web'),
      at('2024-03-01T10:29:59Z', 'api'),
      at('2024-03-01T10:30:00Z', 'api'),
      at('2024-03-01T23:59:59Z', 'other'),
      at('2024-03-02T00:00:00Z', 'web'),
      at('2024-03-31T23:59:59Z', 'api'),
      at('2024-04-01T00:00:00Z', 'web'),
    ]);
    // Another project of another organization, in the same hours: never counted for acme.
    await h.events.record([at('2024-03-01T05:00:00Z', 'web', other.project.id)]);
  });

  it('counts by caller with total = web + api + other; dateTo is exclusive', async () => {
    const day = await stats('?dateFrom=2024-03-01&dateTo=2024-03-02');
    assert.equal(day.status, 200, day.text);
    assert.deepEqual(day.json, { web: 1, api: 2, other: 1, total: 4 });
    assert.deepEqual((await stats('?dateFrom=2024-03-02&dateTo=2024-03-03')).json, { web: 1, api: 0, other: 0, total: 1 });
  });

  it('converts offsets to UTC, including half-hour zones that split an hour', async () => {
    // 16:00+05:30 is 10:30Z: the event at 10:29:59Z is before it.
    assert.deepEqual((await stats(`?dateFrom=${encodeURIComponent('2024-03-01T16:00:00+05:30')}&dateTo=2024-03-02T00:00:00Z`)).json, { web: 0, api: 1, other: 1, total: 2 });
    // 02:00+02:00 is midnight UTC and 13:00+02:00 is 11:00Z.
    assert.deepEqual((await stats(`?dateFrom=${encodeURIComponent('2024-03-01T02:00:00+02:00')}&dateTo=${encodeURIComponent('2024-03-01T13:00:00+02:00')}`)).json, { web: 1, api: 2, other: 0, total: 3 });
    // Without an offset a date-time is UTC; milliseconds count.
    assert.deepEqual((await stats('?dateFrom=2024-02-29T23:59:59.999&dateTo=2024-03-01T00:00:00.001')).json, { web: 2, api: 0, other: 0, total: 2 });
  });

  it('defaults to the 30 days before now: dateTo = now, dateFrom = dateTo - 30 days', async () => {
    // now is 2024-04-01T00:00Z, so the default range is [2024-03-02T00:00Z, 2024-04-01T00:00Z).
    assert.deepEqual((await stats('')).json, { web: 1, api: 1, other: 0, total: 2 });
    assert.deepEqual((await stats('?dateFrom=2024-03-01T10:30:00Z')).json, { web: 1, api: 2, other: 1, total: 4 });
    assert.deepEqual((await stats('?dateTo=2024-03-02')).json, { web: 2, api: 2, other: 1, total: 5 });
  });

  it('answers 400 naming the field for invalid, reversed or empty ranges', async () => {
    const cases: Array<[string, RegExp]> = [
      ['?dateFrom=2024-02-30', /^query\.dateFrom: must be an ISO 8601 date-time/],
      ['?dateTo=yesterday', /^query\.dateTo: must be an ISO 8601/],
      ['?dateFrom=2024-03-01T25:00:00Z', /^query\.dateFrom: /],
      ['?dateFrom=1709251200', /^query\.dateFrom: /],
      ['?dateFrom=2024-03-01&dateFrom=2024-03-02', /^query\.dateFrom: /],
      ['?dateFrom=2024-03-02&dateTo=2024-03-01', /^query\.dateFrom: must be before dateTo/],
      ['?dateFrom=2024-03-01&dateTo=2024-03-01', /^query\.dateFrom: must be before dateTo/],
      ['?dateFrom=2024-05-01', /^query\.dateFrom: must be before dateTo .*the default dateTo/],
    ];
    for (const [query, message] of cases) {
      const reply = await stats(query);
      assert.equal(reply.status, 400, `${query}: ${reply.text}`);
      const body = reply.json as { error: string; details: Array<{ message: string }> };
      assert.match(body.details[0]!.message, message, query);
    }
  });

  it('answers 404 for another organization\'s project and an unknown one, 400 for a malformed id', async () => {
    const foreign = await stats('', acme, other.project.id);
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.json, { error: `project ${other.project.id} not found`, details: [] });
    assert.equal((await stats('', acme, '6f1c1f4e-8d1c-4c36-9a43-2f1b0b5a7e10')).status, 404);
    const malformed = await stats('', acme, 'project-1');
    assert.equal(malformed.status, 400);
    assert.match((malformed.json as { details: Array<{ message: string }> }).details[0]!.message, /^params\.projectId: must be a project id/);
  });

  it('answers 500 with the same shape, hides the cause from the client and logs it once', async () => {
    await h.pool.query('ALTER TABLE assistant_event_hourly RENAME TO assistant_event_hourly_moved');
    try {
      const reply = await stats('?dateFrom=2024-03-01&dateTo=2024-03-02');
      assert.equal(reply.status, 500);
      const requestId = reply.headers.get('x-request-id')!;
      assert.deepEqual(reply.json, { error: 'internal server error', details: [{ message: `reference ${requestId} in the server logs` }] });
      assert.doesNotMatch(reply.text, /relation|assistant_event/);
      const logged = h.logs.filter((line) => line.includes(requestId) && line.includes('"level":"error"'));
      assert.equal(logged.length, 1, 'logged exactly once');
      assert.match(logged[0]!, /assistant_event_hourly/);
      assert.ok(h.logs.some((line) => line.includes(requestId) && line.includes('"msg":"request"') && line.includes('"status":500')), 'and in the access log');
    } finally {
      await h.pool.query('ALTER TABLE assistant_event_hourly_moved RENAME TO assistant_event_hourly');
    }
  });
});
