import assert from 'node:assert/strict';
import { request } from 'node:http';
import { before, describe, it } from 'node:test';
import { startApiHarness, type ApiHarness, type Tenant } from './support/api-harness.js';
import { loadContract, type Contract } from './support/contract.js';

const JOBS = '/v1/static-export/jobs';
const LIMIT = 4096;

/** Sends a chunked body (no Content-Length), which the server can only measure as it arrives. */
function chunkedPost(url: string, key: string, chunks: Buffer[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('bad input: clear 4xx naming the field, nothing written', () => {
  let h: ApiHarness;
  let contract: Contract;
  let acme: Tenant;

  before(async () => {
    h = await startApiHarness({ env: { API_BODY_LIMIT_BYTES: String(LIMIT) } });
    contract = await loadContract(h.api.url);
    acme = await h.tenant('enterprise');
  });

  async function nothingWritten(): Promise<void> {
    assert.deepEqual(await h.exports.list(h.ns.namespace), [], 'no StaticExport was created');
    const { rows } = await h.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rate_limit_windows');
    assert.equal(rows[0]!.n, 0, 'no rate-limit budget was taken');
  }

  it('answers 400 for malformed JSON, wrong types, out-of-range values and unknown fields', async () => {
    const malformed = await h.call('POST', JOBS, { key: acme.adminKey, rawBody: '{"domain": ', headers: { 'content-type': 'application/json' } });
    assert.equal(malformed.status, 400);
    contract.check(malformed, 'POST', JOBS);
    assert.equal((malformed.json as { error: string }).error, 'malformed JSON body');
    assert.match((malformed.json as { details: Array<{ message: string }> }).details[0]!.message, /^body: malformed JSON/);

    const cases: Array<[unknown, string[]]> = [
      [undefined, ['body: required']],
      [{ domain: 42 }, ['body.domain: ']],
      [{ domain: 'Docs.Example.com' }, ['body.domain: must be lower-case']],
      [{ domain: acme.project.domain, version: 'v 1' }, ['body.version: must start with a letter or digit']],
      [{ domain: acme.project.domain, paths: 'guide' }, ['body.paths: ']],
      [{ domain: acme.project.domain, paths: ['guide/'] }, ['body.paths.0: must be an absolute URL path']],
      [{ domain: acme.project.domain, paths: Array.from({ length: 101 }, (_, i) => `/p${i}/`) }, ['body.paths: ']],
      [{ domain: acme.project.domain, origin: 'https://evil.example/' }, ['body: Unrecognized key: "origin"']],
      [{ version: 7, paths: [1] }, ['body.domain: required', 'body.version: ', 'body.paths.0: ']],
    ];
    for (const [body, messages] of cases) {
      const reply = await h.call('POST', JOBS, { key: acme.adminKey, ...(body === undefined ? {} : { body }) });
      assert.equal(reply.status, 400, JSON.stringify(body));
      contract.check(reply, 'POST', JOBS);
      const details = (reply.json as { details: Array<{ message: string; path: string }> }).details;
      assert.equal(details.length, messages.length, JSON.stringify(details));
      messages.forEach((m, i) => assert.ok(details[i]!.message.startsWith(m), `${details[i]!.message} should start with ${m}`));
    }
    await nothingWritten();
  });

  it('answers 413 for an oversized body, announced or chunked', async () => {
    const big = { domain: acme.project.domain, paths: Array.from({ length: 100 }, (_, i) => `/${'x'.repeat(60)}${i}/`) };
    const announced = await h.call('POST', JOBS, { key: acme.adminKey, body: big });
    assert.equal(announced.status, 413);
    contract.check(announced, 'POST', JOBS);
    assert.equal((announced.json as { error: string }).error, `request body too large: the limit is ${LIMIT} bytes`);
    const chunked = await chunkedPost(`${h.api.url}${JOBS}`, acme.adminKey, Array.from({ length: 10 }, () => Buffer.alloc(1024, 0x20)));
    assert.equal(chunked.status, 413);
    const search = await h.call('POST', `/discovery/v1/search/${acme.project.domain}`, { key: acme.assistantKey, body: { query: 'x'.repeat(LIMIT) } });
    assert.equal(search.status, 413);
    contract.check(search, 'POST', '/discovery/v1/search/{domain}');
    // A body just under the limit is read normally (and then validated).
    const fits = await chunkedPost(`${h.api.url}${JOBS}`, acme.adminKey, [Buffer.from(`{"domain":"${acme.project.domain}","x":"${' '.repeat(LIMIT - 200)}"}`)]);
    assert.equal(fits.status, 400);
    await nothingWritten();
  });

  it('answers 415 for a body that is not JSON', async () => {
    const reply = await h.call('POST', JOBS, { key: acme.adminKey, rawBody: 'domain=docs.example.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(reply.status, 415);
    contract.check(reply, 'POST', JOBS);
    await nothingWritten();
  });

  it('answers 404 for unknown paths and 405 for a wrong method, in the error shape', async () => {
    const unknown = await h.call('GET', '/v1/nothing-here', { key: acme.adminKey });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.json, { error: 'no such endpoint: GET /v1/nothing-here', details: [] });
    const wrongMethod = await h.call('DELETE', JOBS, { key: acme.adminKey });
    assert.equal(wrongMethod.status, 405);
    assert.equal((wrongMethod.json as { error: string }).error, 'method DELETE not allowed on this endpoint; allowed: POST');
    assert.match(wrongMethod.headers.get('allow') ?? '', /POST/);
  });

  it('accepts the same request once it is valid', async () => {
    const reply = await h.call('POST', JOBS, { key: acme.adminKey, body: { domain: acme.project.domain, paths: ['/guide/'] } });
    assert.equal(reply.status, 202, reply.text);
    assert.equal((await h.exports.list(h.ns.namespace)).length, 1);
  });
});
