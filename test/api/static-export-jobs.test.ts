import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ORGANIZATION_LABEL, PROJECT_LABEL } from '../../src/exportjobs/export-jobs.js';
import { startApiHarness, type ApiHarness, type Tenant } from './support/api-harness.js';
import { loadContract, type Contract } from './support/contract.js';

const JOBS = '/v1/static-export/jobs';
const JOB = '/v1/static-export/jobs/{jobId}';

describe('static export jobs through the REST API and the real API server', () => {
  let h: ApiHarness;
  let contract: Contract;
  let acme: Tenant;
  let other: Tenant;
  before(async () => {
    h = await startApiHarness();
    contract = await loadContract(h.api.url);
    acme = await h.tenant('enterprise');
    other = await h.tenant('enterprise');
  });

  it('creates a StaticExport labelled with organization and project, origin from the registry, and answers 202 queued', async () => {
    const reply = await h.call('POST', JOBS, { key: acme.adminKey, body: { domain: acme.project.domain, version: 'v2', paths: ['/guide/'] } });
    assert.equal(reply.status, 202, reply.text);
    contract.check(reply, 'POST', JOBS);
    const job = reply.json as { jobId: string; status: string; progress: number; pageCount: number; createdAt: string; updatedAt: string };
    assert.match(job.jobId, /^job-[a-z2-7]{26}$/);
    assert.deepEqual({ status: job.status, progress: job.progress, pageCount: job.pageCount }, { status: 'queued', progress: 0, pageCount: 0 });
    assert.equal(reply.headers.get('location'), `${JOBS}/${job.jobId}`);
    const resource = await h.exports.get(h.ns.namespace, job.jobId);
    assert.ok(resource, 'the StaticExport exists');
    assert.equal(resource.metadata.labels?.[ORGANIZATION_LABEL], acme.org.id);
    assert.equal(resource.metadata.labels?.[PROJECT_LABEL], acme.project.id);
    assert.deepEqual(
      { domain: resource.spec.domain, origin: resource.spec.origin, version: resource.spec.version, paths: resource.spec.paths },
      { domain: acme.project.domain, origin: acme.project.origin, version: 'v2', paths: ['/guide/'] });
    assert.equal(resource.status, undefined, 'the API never writes status');
    assert.equal(job.createdAt, new Date(resource.metadata.creationTimestamp as string).toISOString());
  });

  it('reads the job from the resource as the controller moves it: queued, running, completed, failed', async () => {
    const created = (await h.call('POST', JOBS, { key: acme.adminKey, body: { domain: acme.project.domain } })).json as { jobId: string };
    const read = async (): Promise<Record<string, unknown>> => {
      const reply = await h.call('GET', `${JOBS}/${created.jobId}`, { key: acme.adminKey });
      assert.equal(reply.status, 200, reply.text);
      contract.check(reply, 'GET', JOB);
      return reply.json as Record<string, unknown>;
    };
    assert.equal((await read()).status, 'queued');

    const transition = '2031-01-02T03:04:05Z';
    await h.exports.patchStatus(h.ns.namespace, created.jobId, {
      phase: 'Running', progress: 40, pageCount: 12,
      conditions: [{ type: 'Reconciling', status: 'True', reason: 'Rendering', message: 'rendering', lastTransitionTime: transition }],
    });
    const running = await read();
    assert.deepEqual({ status: running.status, progress: running.progress, pageCount: running.pageCount, updatedAt: running.updatedAt },
      { status: 'running', progress: 40, pageCount: 12, updatedAt: '2031-01-02T03:04:05.000Z' });
    assert.equal(running.error, undefined);

    await h.exports.patchStatus(h.ns.namespace, created.jobId, { phase: 'Failed', failureMessage: 'origin answered 503 for /guide/' });
    const failed = await read();
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error, 'origin answered 503 for /guide/');

    await h.exports.patchStatus(h.ns.namespace, created.jobId, { phase: 'Completed', progress: 100, pageCount: 30 });
    const completed = await read();
    assert.deepEqual({ status: completed.status, progress: completed.progress, pageCount: completed.pageCount }, { status: 'completed', progress: 100, pageCount: 30 });
  });

  it('answers 404 for an unknown job, another organization\'s job, and a StaticExport not made by the API', async () => {
    const created = (await h.call('POST', JOBS, { key: acme.adminKey, body: { domain: acme.project.domain } })).json as { jobId: string };
    const unknown = await h.call('GET', `${JOBS}/job-aaaaaaaaaaaaaaaaaaaaaaaaaa`, { key: acme.adminKey });
    assert.equal(unknown.status, 404);
    contract.check(unknown, 'GET', JOB);
    const foreign = await h.call('GET', `${JOBS}/${created.jobId}`, { key: other.adminKey });
    assert.equal(foreign.status, 404);
    assert.equal((await h.call('POST', `${JOBS}/${created.jobId}/bundle`, { key: other.adminKey })).status, 404);
    await h.exports.create({ namespace: h.ns.namespace, name: 'job-bbbbbbbbbbbbbbbbbbbbbbbbbb', labels: {}, spec: { domain: acme.project.domain, origin: acme.project.origin } });
    assert.equal((await h.call('GET', `${JOBS}/job-bbbbbbbbbbbbbbbbbbbbbbbbbb`, { key: acme.adminKey })).status, 404);
  });

  it('answers 400 naming the field for a malformed job id', async () => {
    const reply = await h.call('GET', `${JOBS}/Not_A_Job`, { key: acme.adminKey });
    assert.equal(reply.status, 400);
    contract.check(reply, 'GET', JOB);
    assert.match((reply.json as { details: Array<{ message: string }> }).details[0]!.message, /^params\.jobId: must be a job id/);
  });

  it('refuses an unknown or foreign domain with 400 and a non-enterprise organization with 403, creating nothing', async () => {
    const before = (await h.exports.list(h.ns.namespace)).length;
    const unknown = await h.call('POST', JOBS, { key: acme.adminKey, body: { domain: 'nowhere.example.com' } });
    assert.equal(unknown.status, 400);
    contract.check(unknown, 'POST', JOBS);
    assert.deepEqual((unknown.json as { details: unknown[] }).details, [{ path: 'domain', message: 'domain: "nowhere.example.com" is not a project of this organization' }]);
    assert.equal((await h.call('POST', JOBS, { key: acme.adminKey, body: { domain: other.project.domain } })).status, 400);
    const budget = await h.pool.query<{ n: number }>(`SELECT coalesce(sum(used), 0)::int AS n FROM rate_limit_windows WHERE organization_id = $1 AND family = 'export'`, [acme.org.id]);
    const spent = budget.rows[0]!.n;
    assert.equal((await h.call('POST', JOBS, { key: acme.adminKey, body: { domain: 'nowhere.example.com' } })).status, 400);
    const after = await h.pool.query<{ n: number }>(`SELECT coalesce(sum(used), 0)::int AS n FROM rate_limit_windows WHERE organization_id = $1 AND family = 'export'`, [acme.org.id]);
    assert.equal(after.rows[0]!.n, spent, 'an unknown domain costs no rate-limit budget');

    const team = await h.tenant('team');
    const refused = await h.call('POST', JOBS, { key: team.adminKey, body: { domain: team.project.domain } });
    assert.equal(refused.status, 403);
    contract.check(refused, 'POST', JOBS);
    assert.match((refused.json as { error: string }).error, /enterprise plan/);
    assert.equal((await h.exports.list(h.ns.namespace)).length, before);
    const { rows } = await h.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rate_limit_windows WHERE organization_id = $1', [team.org.id]);
    assert.equal(rows[0]!.n, 0, 'a plan refusal costs no rate-limit budget');
  });
});
