import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { startApiHarness, type ApiHarness, type Tenant } from './support/api-harness.js';
import { loadContract, type Contract } from './support/contract.js';

const JOBS = '/v1/static-export/jobs';
const BUNDLE = '/v1/static-export/jobs/{jobId}/bundle';
const TTL = 60;

describe('bundle links: presigned on every call, 409 until completed', () => {
  let h: ApiHarness;
  let contract: Contract;
  let acme: Tenant;
  // The API's clock: the test moves it to make a link that is already expired.
  let clockOffsetMs = 0;
  const archive = Buffer.from('PK\u0003\u0004 a tiny stand-in for a zip archive');

  before(async () => {
    h = await startApiHarness({ env: { PRESIGN_TTL_SECONDS: String(TTL) }, clock: () => new Date(Date.now() + clockOffsetMs) });
    contract = await loadContract(h.api.url);
    acme = await h.tenant('enterprise');
  });

  /** Creates a job through the API and plays the controller: status Completed with the archive in the bucket. */
  async function completedJob(): Promise<{ jobId: string; key: string }> {
    const { jobId } = (await h.call('POST', JOBS, { key: acme.adminKey, body: { domain: acme.project.domain } })).json as { jobId: string };
    const key = `exports/${h.ns.namespace}/${jobId}/g1/bundle.zip`;
    await h.bucket.client.send(new PutObjectCommand({ Bucket: h.bucket.bucket, Key: key, Body: archive, ContentType: 'application/zip' }));
    await h.exports.patchStatus(h.ns.namespace, jobId, {
      phase: 'Completed', progress: 100, pageCount: 3,
      bundle: { key, format: 'zip', generation: 1, completedAt: new Date().toISOString(), sizeBytes: archive.length, sha256: createHash('sha256').update(archive).digest('hex') },
    });
    return { jobId, key };
  }

  it('answers 409 while the job is queued, running, failed, or completed without a bundle', async () => {
    const { jobId } = (await h.call('POST', JOBS, { key: acme.adminKey, body: { domain: acme.project.domain } })).json as { jobId: string };
    const bundle = (): ReturnType<ApiHarness['call']> => h.call('POST', `${JOBS}/${jobId}/bundle`, { key: acme.adminKey });
    const queued = await bundle();
    assert.equal(queued.status, 409);
    contract.check(queued, 'POST', BUNDLE);
    assert.match((queued.json as { error: string }).error, /it is queued/);
    for (const phase of ['Running', 'Failed', 'Completed'] as const) {
      await h.exports.patchStatus(h.ns.namespace, jobId, { phase });
      assert.equal((await bundle()).status, 409, phase);
    }
  });

  it('presigns the archive: the link downloads it without credentials and expires after the configured lifetime', async () => {
    const { jobId } = await completedJob();
    const before = (await h.exports.get(h.ns.namespace, jobId))!.metadata.resourceVersion;
    const reply = await h.call('POST', `${JOBS}/${jobId}/bundle`, { key: acme.adminKey });
    assert.equal(reply.status, 200, reply.text);
    contract.check(reply, 'POST', BUNDLE);
    const link = reply.json as { jobId: string; bundleUrl: string; expiresAt: string; sizeBytes: number };
    assert.equal(link.jobId, jobId);
    assert.equal(link.sizeBytes, archive.length);
    const lifetime = (Date.parse(link.expiresAt) - Date.now()) / 1000;
    assert.ok(lifetime > TTL - 5 && lifetime <= TTL, `link lifetime ${lifetime} s`);
    const download = await fetch(link.bundleUrl);
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), archive);
    assert.equal((await h.exports.get(h.ns.namespace, jobId))!.metadata.resourceVersion, before, 'the API never writes the resource');
  });

  it('after expiry, calling again gives a fresh working link to the same files', async () => {
    const { jobId } = await completedJob();
    clockOffsetMs = -3 * TTL * 1000;
    const stale = (await h.call('POST', `${JOBS}/${jobId}/bundle`, { key: acme.adminKey })).json as { bundleUrl: string; expiresAt: string };
    clockOffsetMs = 0;
    assert.ok(Date.parse(stale.expiresAt) < Date.now());
    assert.equal((await fetch(stale.bundleUrl)).status, 403, 'the S3 server refuses the expired link');
    const fresh = (await h.call('POST', `${JOBS}/${jobId}/bundle`, { key: acme.adminKey })).json as { bundleUrl: string; expiresAt: string };
    assert.notEqual(fresh.bundleUrl, stale.bundleUrl);
    assert.ok(Date.parse(fresh.expiresAt) > Date.now());
    const download = await fetch(fresh.bundleUrl);
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), archive);
  });

  it('answers 409 when the archive is gone from storage instead of handing out a dead link', async () => {
    const { jobId } = await completedJob();
    await h.exports.patchStatus(h.ns.namespace, jobId, { bundle: { key: `exports/${h.ns.namespace}/${jobId}/g9/missing.zip`, format: 'zip', generation: 9, completedAt: new Date().toISOString(), sizeBytes: 1, sha256: 'a'.repeat(64) } });
    const reply = await h.call('POST', `${JOBS}/${jobId}/bundle`, { key: acme.adminKey });
    assert.equal(reply.status, 409);
    assert.match((reply.json as { error: string }).error, /no longer in storage/);
  });

  it('uses a 24 h lifetime when PRESIGN_TTL_SECONDS is not set', async () => {
    const { jobId } = await completedJob();
    const replica = await h.replica({ env: { PRESIGN_TTL_SECONDS: '' } });
    const link = (await h.call('POST', `${JOBS}/${jobId}/bundle`, { key: acme.adminKey, base: replica.url })).json as { expiresAt: string };
    const lifetime = (Date.parse(link.expiresAt) - Date.now()) / 1000;
    assert.ok(lifetime > 86_400 - 10 && lifetime <= 86_400, `lifetime ${lifetime}`);
  });
});
