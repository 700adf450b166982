import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import pg from 'pg';
import { requireEnv } from '../support/environment.js';
import { startApiHarness, type ApiHarness, type Tenant } from './support/api-harness.js';
import { loadContract, type Contract } from './support/contract.js';

type Json = Record<string, unknown>;

describe('/openapi.json, /metrics and the probes', () => {
  let h: ApiHarness;
  let contract: Contract;
  let acme: Tenant;

  before(async () => {
    h = await startApiHarness();
    contract = await loadContract(h.api.url);
    acme = await h.tenant('enterprise');
  });

  it('serves an OpenAPI 3.1 document of every operation, with schemas valid under JSON Schema 2020-12', () => {
    const doc = contract.document;
    assert.equal(doc.openapi, '3.1.0');
    const paths = doc.paths as Record<string, Record<string, Json>>;
    assert.deepEqual(Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)).sort(), [
      'GET /v1/analytics/{projectId}/assistant/caller-stats',
      'GET /v1/static-export/jobs/{jobId}',
      'POST /discovery/v1/search/{domain}',
      'POST /v1/static-export/jobs',
      'POST /v1/static-export/jobs/{jobId}/bundle',
    ]);
    const ajv = new Ajv2020({ strict: true, validateFormats: false });
    ajv.addFormat('date-time', true).addFormat('date', true).addFormat('uri', true).addFormat('uuid', true);
    for (const [name, schema] of Object.entries((doc.components as { schemas: Record<string, Json> }).schemas)) {
      assert.doesNotThrow(() => ajv.compile(schema), `components.schemas.${name} compiles`);
    }
    const search = paths['/discovery/v1/search/{domain}']!.post!;
    assert.deepEqual(search.security, [{ assistantKey: [] }]);
    const body = ((search.requestBody as Json).content as Record<string, { schema: Json }>)['application/json']!.schema;
    assert.deepEqual((body.properties as Record<string, Json>).pageSize, { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'Maximum number of results (1-50, default 10).' });
    const stats = paths['/v1/analytics/{projectId}/assistant/caller-stats']!.get!;
    assert.deepEqual((stats.parameters as Json[]).map((p) => `${String(p.in)}:${String(p.name)}:${String(p.required)}`), ['path:projectId:true', 'query:dateFrom:false', 'query:dateTo:false']);
    assert.ok(Object.keys(stats.responses as Json).includes('429'));
  });

  it('describes the responses the API really sends', async () => {
    const created = await h.call('POST', '/v1/static-export/jobs', { key: acme.adminKey, body: { domain: acme.project.domain } });
    contract.check(created, 'POST', '/v1/static-export/jobs');
    const { jobId } = created.json as { jobId: string };
    contract.check(await h.call('GET', `/v1/static-export/jobs/${jobId}`, { key: acme.adminKey }), 'GET', '/v1/static-export/jobs/{jobId}');
    contract.check(await h.call('GET', `/v1/analytics/${acme.project.id}/assistant/caller-stats`, { key: acme.adminKey }), 'GET', '/v1/analytics/{projectId}/assistant/caller-stats');
    // A response that breaks the document fails the check: the check itself can fail.
    assert.throws(() => contract.check({ status: 200, headers: new Headers(), text: '', json: { web: 1 } }, 'GET', '/v1/analytics/{projectId}/assistant/caller-stats'));
    assert.throws(() => contract.check({ status: 418, headers: new Headers(), text: '', json: {} }, 'GET', '/v1/static-export/jobs/{jobId}'));
  });

  it('exposes metrics labelled by route template and status class, never by raw path or id', async () => {
    const scrape = async (): Promise<string> => (await fetch(`${h.api.opsUrl}/metrics`)).text();
    const count = (text: string, labels: string): number => {
      const line = text.split('\n').find((l) => l.startsWith(`docport_api_requests_total{${labels}}`));
      return line === undefined ? 0 : Number(line.split(' ').at(-1));
    };
    const stats = 'method="GET",route="/v1/analytics/{projectId}/assistant/caller-stats",status_class="2xx"';
    const job404 = 'method="GET",route="/v1/static-export/jobs/{jobId}",status_class="4xx"';
    const unmatched = 'method="GET",route="unmatched",status_class="4xx"';
    const before = await scrape();
    await h.call('GET', `/v1/analytics/${acme.project.id}/assistant/caller-stats`, { key: acme.adminKey });
    await h.call('GET', '/v1/static-export/jobs/job-aaaaaaaaaaaaaaaaaaaaaaaaaa', { key: acme.adminKey });
    await h.call('GET', `/some/random/${acme.project.id}`);
    const after = await scrape();
    assert.equal(count(after, stats) - count(before, stats), 1);
    assert.equal(count(after, job404) - count(before, job404), 1);
    assert.equal(count(after, unmatched) - count(before, unmatched), 1);
    assert.match(after, /docport_api_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/analytics/);
    assert.match(after, /process_cpu_seconds_total/);
    assert.ok(!after.includes(acme.project.id), 'no project id in metrics');
    assert.ok(!after.includes('job-aaaa'), 'no job id in metrics');
    assert.equal((await fetch(`${h.api.url}/metrics`)).status, 404, 'metrics stay off the public port');
  });

  it('answers /healthz and /readyz on both listeners, and readiness fails when the database is gone', async () => {
    for (const base of [h.api.url, h.api.opsUrl]) {
      assert.deepEqual(await (await fetch(`${base}/healthz`)).json(), { status: 'ok' });
      assert.deepEqual(await (await fetch(`${base}/readyz`)).json(), { status: 'ready' });
    }
    const replica = await h.replica();
    const database = new URL(h.databaseUrl).pathname.slice(1);
    // From the server's maintenance database: the test database refuses connections for a moment.
    const admin = new pg.Client({ connectionString: requireEnv('DOCPORT_DATABASE_URL', 'PostgreSQL') });
    await admin.connect();
    await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS false`);
    try {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [database]);
      const reply = await fetch(`${replica.opsUrl}/readyz`);
      assert.equal(reply.status, 503);
      assert.equal(((await reply.json()) as { error: string }).error, 'service temporarily unavailable, retry later');
      assert.equal((await fetch(`${replica.opsUrl}/healthz`)).status, 200, 'liveness does not depend on the database');
    } finally {
      await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await replica.stop();
    assert.equal((await fetch(`${h.api.opsUrl}/readyz`).catch(() => undefined))?.status, 200, 'the other replica recovers');
  });
});
