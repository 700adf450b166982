import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { hashApiKey } from '../../src/identity/api-keys.js';
import { cleanup } from '../support/environment.js';
import { startApiHarness, type ApiHarness } from './support/api-harness.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

describe('docport orgs | projects | keys | analytics import', () => {
  let h: ApiHarness;
  let dir: string;
  let docport: (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

  before(async () => {
    h = await startApiHarness();
    dir = await mkdtemp(path.join(tmpdir(), 'docport-cli-'));
    cleanup(() => rm(dir, { recursive: true, force: true }));
    docport = (...args) => new Promise((resolve) => {
      execFile(process.execPath, [MAIN, ...args], { env: { ...process.env, DATABASE_URL: h.databaseUrl } }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
    });
  });

  it('creates organizations and projects, printing their ids; refuses bad input with exit code 2', async () => {
    const org = await docport('orgs', 'create', '--name', 'Acme Docs', '--plan', 'enterprise');
    assert.equal(org.code, 0, org.stderr);
    const orgId = org.stdout.trim();
    assert.match(orgId, /^[0-9a-f-]{36}$/);
    const list = await docport('orgs', 'list', '--json');
    assert.deepEqual((JSON.parse(list.stdout) as Array<{ id: string; plan: string }>).map((o) => [o.id, o.plan]), [[orgId, 'enterprise']]);
    assert.equal((await docport('orgs', 'set-plan', orgId, 'team')).code, 0);
    assert.equal((await h.identity.getOrganization(orgId))?.plan, 'team');

    const project = await docport('projects', 'create', '--org', orgId, '--domain', 'docs.acme.test', '--origin', 'https://docs.acme.test/');
    assert.equal(project.code, 0, project.stderr);
    assert.equal((await h.identity.getProject(project.stdout.trim()))?.domain, 'docs.acme.test');
    const duplicate = await docport('projects', 'create', '--org', orgId, '--domain', 'docs.acme.test', '--origin', 'https://elsewhere.test/');
    assert.equal(duplicate.code, 2);
    assert.match(duplicate.stderr, /a project with this domain exists already/);
    const badDomain = await docport('projects', 'create', '--org', orgId, '--domain', 'Docs_Acme', '--origin', 'https://x.test/');
    assert.equal(badDomain.code, 2);
    assert.match(badDomain.stderr, /--domain must be lower-case/);
    const withCredentials = await docport('projects', 'create', '--org', orgId, '--domain', 'docs2.acme.test', '--origin', 'https://user:hunter2@x.test/');
    assert.equal(withCredentials.code, 2);
    assert.match(withCredentials.stderr, /--origin must not contain credentials/);
    assert.ok(!withCredentials.stderr.includes('hunter2'), 'the password is not echoed');
    assert.equal((await docport('orgs', 'create', '--name', 'x', '--plan', 'gold')).code, 2);
    assert.equal((await docport('orgs', 'create')).code, 2);
    assert.equal((await docport('keys', 'create', '--org', orgId, '--type', 'root')).code, 2);
  });

  it('prints a key once on stdout, stores only its hash; the key works until revoked', async () => {
    const acme = await h.tenant('free');
    const created = await docport('keys', 'create', '--org', acme.org.id, '--type', 'admin', '--name', 'ci');
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    assert.match(key, /^dpa_[A-Za-z0-9_-]{43}$/);
    assert.equal(created.stdout, `${key}\n`, 'stdout holds the key and nothing else');
    assert.match(created.stderr, /shown only this once/);
    assert.ok(!created.stderr.includes(key));

    const { rows } = await h.pool.query<{ id: string; key_hash: Buffer; row: string }>(
      'SELECT id, key_hash, row_to_json(k)::text AS row FROM api_keys k WHERE organization_id = $1 AND name = $2', [acme.org.id, 'ci']);
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0]!.key_hash, hashApiKey(key));
    assert.ok(!rows[0]!.row.includes(key.slice(12)), 'the secret part of the key is not stored');
    const listed = await docport('keys', 'list', '--org', acme.org.id);
    assert.ok(!listed.stdout.includes(key), 'list shows a prefix only');
    assert.ok(listed.stdout.includes(`${key.slice(0, 12)}...`));

    const path_ = `/v1/analytics/${acme.project.id}/assistant/caller-stats`;
    assert.equal((await h.call('GET', path_, { key })).status, 200);
    const revoked = await docport('keys', 'revoke', rows[0]!.id);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await h.call('GET', path_, { key })).status, 401);
    assert.equal((await docport('keys', 'revoke', rows[0]!.id)).code, 0, 'revoking twice is fine');
    assert.equal((await docport('keys', 'revoke', '00000000-0000-4000-8000-000000000000')).code, 2);

    const assistant = await docport('keys', 'create', '--org', acme.org.id, '--type', 'assistant');
    assert.match(assistant.stdout.trim(), /^dps_/);
  });

  it('imports JSONL events with progress on stderr; a bad file imports nothing', async () => {
    const acme = await h.tenant('free');
    const lines = [
      ...Array.from({ length: 25 }, (_, i) => ({ projectId: acme.project.id, timestamp: `2024-03-01T${String(i % 24).padStart(2, '0')}:15:00Z`, caller: 'web' })),
      { projectId: acme.project.id, timestamp: '2024-03-01T23:30:00-01:00', caller: 'api' },
      { projectId: acme.project.id, timestamp: '2024-03-01T12:00:00+02:00', caller: 'other' },
    ];
    const good = path.join(dir, 'events.jsonl');
    await writeFile(good, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n\n`);
    const imported = await docport('analytics', 'import', good, '--batch-size', '10');
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.stdout.trim(), '27');
    assert.match(imported.stderr, /validated 27 events of 1 projects/);
    assert.match(imported.stderr, /imported 27\/27 events \(100%\)/);
    const stats = await h.call('GET', `/v1/analytics/${acme.project.id}/assistant/caller-stats?dateFrom=2024-03-01&dateTo=2024-03-02`, { key: acme.adminKey });
    // 23:30-01:00 is 00:30Z on March 2nd: outside the day.
    assert.deepEqual(stats.json, { web: 25, api: 0, other: 1, total: 26 });

    const bad = path.join(dir, 'bad.jsonl');
    await writeFile(bad, [
      JSON.stringify({ projectId: acme.project.id, timestamp: '2024-03-05T00:00:00Z', caller: 'web' }),
      JSON.stringify({ projectId: acme.project.id, timestamp: '2024-03-05T00:00:00', caller: 'web' }),
      '{not json',
      JSON.stringify({ projectId: '6f1c1f4e-8d1c-4c36-9a43-2f1b0b5a7e10', timestamp: '2024-03-05T00:00:00Z', caller: 'bot' }),
    ].join('\n'));
    const refused = await docport('analytics', 'import', bad);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /nothing imported/);
    assert.match(refused.stderr, /line 2: timestamp: /);
    assert.match(refused.stderr, /line 3: not valid JSON/);
    assert.match(refused.stderr, /line 4: caller: /);
    const { rows } = await h.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM assistant_events WHERE occurred_at >= '2024-03-05'`);
    assert.equal(rows[0]!.n, 0);
    const unknownProject = path.join(dir, 'unknown.jsonl');
    await writeFile(unknownProject, JSON.stringify({ projectId: '6f1c1f4e-8d1c-4c36-9a43-2f1b0b5a7e10', timestamp: '2024-03-05T00:00:00Z', caller: 'web' }));
    const missing = await docport('analytics', 'import', unknownProject);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /project 6f1c1f4e-8d1c-4c36-9a43-2f1b0b5a7e10 is not registered/);
  });

  it('docport api migrates, serves the API and the operations port, and stops on SIGTERM', async () => {
    const env = { ...h.env, HTTP_PORT: '0', METRICS_PORT: '0', API_DRAIN_SECONDS: '0' };
    const child = spawn(process.execPath, [MAIN, 'api'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    cleanup(() => Promise.resolve(child.exitCode === null && child.kill('SIGKILL')));
    let output = '';
    const listening = await new Promise<{ url: string; opsUrl: string }>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((l) => l.includes('REST API listening'));
        if (line) resolve(JSON.parse(line) as { url: string; opsUrl: string });
      });
      child.once('exit', (code) => reject(new Error(`docport api exited with ${code}: ${output}`)));
    });
    assert.equal((await fetch(`${listening.url}/openapi.json`)).status, 200);
    assert.equal((await fetch(`${listening.opsUrl}/readyz`)).status, 200);
    assert.match(await (await fetch(`${listening.opsUrl}/metrics`)).text(), /docport_api_requests_total/);
    assert.ok(!output.includes(h.env.S3_SECRET_ACCESS_KEY!) && !output.includes(h.databaseUrl), 'no secret in the logs');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    assert.equal(code, 0);
    assert.match(output, /"msg":"shutting down"/);
  });

  it('docport api names what is missing from the configuration', async () => {
    const result = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, [MAIN, 'api'], { env: { PATH: process.env.PATH ?? '' } }, (error, _stdout, stderr) =>
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stderr })));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /DATABASE_URL: required by the API/);
    assert.match(result.stderr, /S3_BUCKET: required by the API/);
  });
});
