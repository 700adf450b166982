import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { startApiHarness, type ApiHarness, type Tenant } from './support/api-harness.js';
import { loadContract, type Contract } from './support/contract.js';

type Endpoint = 'analytics' | 'createJob' | 'getJob' | 'bundle' | 'search';
const ENDPOINTS: Endpoint[] = ['analytics', 'createJob', 'getJob', 'bundle', 'search'];
const TEMPLATES: Record<Endpoint, [string, string]> = {
  analytics: ['GET', '/v1/analytics/{projectId}/assistant/caller-stats'],
  createJob: ['POST', '/v1/static-export/jobs'],
  getJob: ['GET', '/v1/static-export/jobs/{jobId}'],
  bundle: ['POST', '/v1/static-export/jobs/{jobId}/bundle'],
  search: ['POST', '/discovery/v1/search/{domain}'],
};

describe('auth matrix: key types x endpoint families x organizations', () => {
  let h: ApiHarness;
  let contract: Contract;
  let acme: Tenant;
  let other: Tenant;
  let jobId: string;
  const keys: Record<string, string | undefined> = {};

  before(async () => {
    h = await startApiHarness();
    contract = await loadContract(h.api.url);
    acme = await h.tenant('enterprise');
    other = await h.tenant('enterprise');
    jobId = ((await h.call('POST', '/v1/static-export/jobs', { key: acme.adminKey, body: { domain: acme.project.domain } })).json as { jobId: string }).jobId;
    const revokedAdmin = await h.apiKey(acme.org.id, 'admin');
    const revokedAssistant = await h.apiKey(acme.org.id, 'assistant');
    await h.identity.revokeApiKey(revokedAdmin.id);
    await h.identity.revokeApiKey(revokedAssistant.id);
    Object.assign(keys, {
      'own admin': acme.adminKey, 'own assistant': acme.assistantKey,
      'other admin': other.adminKey, 'other assistant': other.assistantKey,
      'revoked admin': revokedAdmin.key, 'revoked assistant': revokedAssistant.key,
      'unknown admin': `dpa_${'A'.repeat(43)}`, 'unknown assistant': `dps_${'A'.repeat(43)}`,
      'malformed': 'dpa_short', 'foreign prefix': `sk_${'A'.repeat(43)}`,
    });
  });

  /** Sends one request to an endpoint as acme's resources would be addressed (acme's project, job and domain). */
  async function send(endpoint: Endpoint, authorization: string | undefined): Promise<{ status: number; error: string }> {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const paths: Record<Endpoint, string> = {
      analytics: `/v1/analytics/${acme.project.id}/assistant/caller-stats`,
      createJob: '/v1/static-export/jobs',
      getJob: `/v1/static-export/jobs/${jobId}`,
      bundle: `/v1/static-export/jobs/${jobId}/bundle`,
      search: `/discovery/v1/search/${acme.project.domain}`,
    };
    const body = endpoint === 'createJob' ? { domain: acme.project.domain } : endpoint === 'search' ? { query: 'install' } : undefined;
    const [method, template] = TEMPLATES[endpoint];
    const reply = await h.call(method, paths[endpoint], { headers, ...(body ? { body } : {}) });
    contract.check(reply, method, template);
    if (reply.status === 401) assert.equal(reply.headers.get('www-authenticate'), 'Bearer realm="docport"');
    return { status: reply.status, error: (reply.json as { error?: string } | undefined)?.error ?? '' };
  }

  it('refuses missing, malformed, unknown and revoked keys with 401 everywhere', async () => {
    const cases: Array<[string, string | undefined]> = [
      ['no header', undefined],
      ['empty bearer', 'Bearer '],
      ['basic scheme', `Basic ${Buffer.from('user:pass').toString('base64')}`],
      ['malformed', `Bearer ${keys.malformed}`],
      ['foreign prefix', `Bearer ${keys['foreign prefix']}`],
      ['unknown admin', `Bearer ${keys['unknown admin']}`],
      ['unknown assistant', `Bearer ${keys['unknown assistant']}`],
      ['revoked admin', `Bearer ${keys['revoked admin']}`],
      ['revoked assistant', `Bearer ${keys['revoked assistant']}`],
    ];
    for (const [name, authorization] of cases) {
      for (const endpoint of ENDPOINTS) {
        const { status } = await send(endpoint, authorization);
        assert.equal(status, 401, `${name} on ${endpoint}`);
      }
    }
  });

  it('answers by key type and organization as the matrix says', async () => {
    const expected: Record<string, Record<Endpoint, number>> = {
      'own admin': { analytics: 200, createJob: 202, getJob: 200, bundle: 409, search: 403 },
      'own assistant': { analytics: 403, createJob: 403, getJob: 403, bundle: 403, search: 200 },
      // Another organization's admin key addresses acme's project, domain and job.
      'other admin': { analytics: 404, createJob: 400, getJob: 404, bundle: 404, search: 403 },
      'other assistant': { analytics: 403, createJob: 403, getJob: 403, bundle: 403, search: 404 },
    };
    const actual: Record<string, Record<string, number>> = {};
    for (const who of Object.keys(expected)) {
      actual[who] = {};
      for (const endpoint of ENDPOINTS) actual[who][endpoint] = (await send(endpoint, `Bearer ${keys[who]}`)).status;
    }
    assert.deepEqual(actual, expected);
  });

  it('names the key type needed in 403 messages', async () => {
    assert.equal((await send('search', `Bearer ${acme.adminKey}`)).error, 'this endpoint needs an assistant key (dps_...); an admin key (dpa_...) was sent');
    assert.equal((await send('analytics', `Bearer ${acme.assistantKey}`)).error, 'this endpoint needs an admin key (dpa_...); an assistant key (dps_...) was sent');
    assert.equal((await send('createJob', `Bearer ${acme.assistantKey}`)).error, 'this endpoint needs an admin key (dpa_...); an assistant key (dps_...) was sent');
  });

  it('never writes a key into a log line or a response', async () => {
    const everything = h.logs.join('\n');
    for (const key of Object.values(keys)) if (key) assert.ok(!everything.includes(key), 'a key reached the logs');
    const reply = await h.call('GET', `/v1/analytics/${acme.project.id}/assistant/caller-stats`, { key: keys['revoked admin'] });
    assert.ok(!reply.text.includes(keys['revoked admin']!));
    assert.ok(h.logs.length > 0, 'the access log was written');
  });

  it('redacts keys that callers put where requests are logged: the path, the query and the body', async () => {
    const key = acme.adminKey;
    const before = h.logs.length;
    await h.call('GET', `/v1/${key}`, { key });
    await h.call('GET', `/v1/analytics/${acme.project.id}/assistant/caller-stats?dateFrom=${key}`, { key });
    await h.call('POST', '/v1/static-export/jobs', { key, body: { domain: key } });
    const written = h.logs.slice(before).join('\n');
    assert.ok(h.logs.length > before, 'the requests were logged');
    assert.ok(!written.includes(key), `a key reached the logs: ${written}`);
  });
});
