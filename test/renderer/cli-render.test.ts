// `docport render` and `docport index` as the render Job and an operator run them:
// a child process configured only through the environment.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { renderResultSchema } from '../../src/apis/render/contract.js';
import { requireEnv } from '../support/environment.js';
import { testDatabase } from '../support/postgres.js';
import { exportTarget, scratchDir } from './support/export-env.js';
import { startFixtureSites, type FixtureSites } from './support/fixture-site.js';

const CLI = new URL('../../src/cli/main.js', import.meta.url).pathname;

function run(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

describe('docport render / docport index commands', () => {
  let sites: FixtureSites;
  let target: Awaited<ReturnType<typeof exportTarget>>;
  let databaseUrl: string;
  let baseEnv: Record<string, string>;
  before(async () => {
    sites = await startFixtureSites();
    databaseUrl = await testDatabase();
    target = await exportTarget('cli', { domain: 'docs.cli.test', origin: `${sites.site.origin}/` });
    baseEnv = {
      S3_ENDPOINT: target.bucket.endpoint, S3_REGION: target.bucket.region, S3_BUCKET: target.bucket.bucket,
      S3_ACCESS_KEY_ID: target.bucket.accessKeyId, S3_SECRET_ACCESS_KEY: target.bucket.secretAccessKey,
      KUBECONFIG: target.kubeconfigPath, CHROMIUM_PATH: requireEnv('DOCPORT_CHROMIUM_PATH', 'Chromium'),
      DATABASE_URL: databaseUrl, RENDER_CONCURRENCY: '2', RENDER_WORK_DIR: await scratchDir('docport-cli-'),
    };
  });
  after(() => sites?.close());

  const request = (generation: number): string => JSON.stringify({
    namespace: target.namespace, name: 'cli', generation, domain: 'docs.cli.test', origin: `${sites.site.origin}/`,
    paths: ['/v1/en/'], format: 'zip', outputPrefix: `exports/${target.namespace}/cli/g${generation}/`,
  });
  const secretsIn = (text: string): boolean =>
    text.includes(target.bucket.secretAccessKey) || text.includes(new URL(databaseUrl).password || '\u0000never');

  it('renders, uploads, indexes and exits 0 with progress lines on stderr', async () => {
    const out = await run(['render'], { ...baseEnv, RENDER_REQUEST: request(1), RENDER_ALLOW_PRIVATE_NETWORKS: 'true' });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /\[render\]\s+\d+%\s+\d+ pages/);
    assert.ok(!secretsIn(out.stdout + out.stderr));
    const result = renderResultSchema.parse(JSON.parse((await target.store.read(`exports/${target.namespace}/cli/g1/result.json`))!.toString('utf8')));
    assert.equal(result.outcome, 'succeeded');
    assert.equal(result.pageCount, 2);
    const status = (await target.staticExports.get(target.namespace, 'cli'))?.status;
    assert.deepEqual({ progress: status?.progress, pageCount: status?.pageCount }, { progress: 100, pageCount: 2 });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ path: string }>("SELECT DISTINCT path FROM search_sections WHERE domain = 'docs.cli.test' AND version = '' ORDER BY path");
    await client.end();
    assert.deepEqual(rows.map((r) => r.path), ['/v1/en/', '/v1/en/install.html']);
  });

  it('refuses a loopback origin unless private networks are allowed, writing a failed result.json', async () => {
    const out = await run(['render'], { ...baseEnv, RENDER_REQUEST: request(2) });
    assert.equal(out.code, 1);
    const result = renderResultSchema.parse(JSON.parse((await target.store.read(`exports/${target.namespace}/cli/g2/result.json`))!.toString('utf8')));
    assert.equal(result.outcome, 'failed');
    assert.match(result.outcome === 'failed' ? result.error : '', /loopback address 127\.0\.0\.1 refused \(set RENDER_ALLOW_PRIVATE_NETWORKS=true/);
    assert.ok(!secretsIn(out.stdout + out.stderr + JSON.stringify(result)));
  });

  it('writes a failed result.json when the kubeconfig cannot be loaded', async () => {
    const out = await run(['render'], { ...baseEnv, KUBECONFIG: `${baseEnv.RENDER_WORK_DIR}/no-such-kubeconfig`, RENDER_REQUEST: request(3) });
    assert.equal(out.code, 1, out.stderr);
    const result = renderResultSchema.parse(JSON.parse((await target.store.read(`exports/${target.namespace}/cli/g3/result.json`))!.toString('utf8')));
    assert.equal(result.outcome, 'failed');
    assert.match(result.outcome === 'failed' ? result.error : '', /cannot load the kubeconfig: .*no-such-kubeconfig/);
  });

  it('refuses an origin with credentials at the edge (exit 2), without echoing them', async () => {
    const withCredentials = JSON.parse(request(4)) as { origin: string };
    withCredentials.origin = withCredentials.origin.replace('http://', 'http://reader:pa55word@');
    const out = await run(['render'], { ...baseEnv, RENDER_REQUEST: JSON.stringify(withCredentials) });
    assert.equal(out.code, 2, out.stderr);
    assert.match(out.stderr, /origin: must not contain credentials/);
    assert.ok(!(out.stdout + out.stderr).includes('pa55word'));
    assert.equal(await target.store.read(`exports/${target.namespace}/cli/g4/result.json`), undefined);
  });

  it('exits 2 with a clear message on a missing or invalid request', async () => {
    const missing = await run(['render'], baseEnv);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /RENDER_REQUEST is not set/);
    const invalid = await run(['render'], { ...baseEnv, RENDER_REQUEST: JSON.stringify({ name: 'x' }) });
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /RENDER_REQUEST is invalid:[\s\S]*namespace/);
  });

  it('docport index crawls the same way and refreshes search without exporting', async () => {
    const out = await run(['index', '--origin', `${sites.site.origin}/`, '--domain', 'docs.cli.test', '--version', 'v2', '--path', '/v2/'],
      { ...baseEnv, RENDER_ALLOW_PRIVATE_NETWORKS: 'true' });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /docport index: \d+ pages, \d+ sections indexed for docs\.cli\.test v2/);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ path: string; anchor: string | null }>("SELECT path, anchor FROM search_sections WHERE domain = 'docs.cli.test' AND version = 'v2'");
    await client.end();
    assert.ok(rows.some((r) => r.path === '/v2/en/' && r.anchor === 'install'));
    assert.ok(rows.some((r) => r.path === '/v2/en/orphan.html'), 'sitemap seeds count for indexing too');
    assert.ok(rows.every((r) => r.path.startsWith('/v2/')));
  });
});
