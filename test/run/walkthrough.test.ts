// `make run` as a newcomer uses it: start the stack, then run the README walkthrough's
// shell blocks verbatim, then open the downloaded bundle from file:// in Chromium.
// The runner's components are passed in through KUBECONFIG, DATABASE_URL and S3_*, which
// exercises make run's "use mine instead" path and keeps the suite fast.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS } from '../../src/devenv/chromium.js';
import { requireEnv } from '../support/environment.js';
import { testDatabase } from '../support/postgres.js';
import { testBucket } from '../support/s3.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** The ```sh blocks of the README's walkthrough section, in order. */
async function walkthroughScript(): Promise<string> {
  const readme = await readFile(path.join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf('## Walkthrough');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 10));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  assert.ok(blocks.length >= 5, 'the walkthrough has its shell blocks');
  return ['set -euo pipefail', ...blocks].join('\n');
}

describe('make run and the README walkthrough', () => {
  let dir: string;
  let stack: ChildProcess;
  let output = '';
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docport-walkthrough-'));
    for (const link of ['config', 'dist']) await symlink(path.join(REPO, link), path.join(dir, link));
    const bucket = await testBucket();
    stack = spawn(process.execPath, [path.join(REPO, 'dist/src/devenv/run-local.js')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH, HOME: process.env.HOME, NODE_NO_WARNINGS: '1', LOG_LEVEL: 'warn',
        KUBECONFIG: requireEnv('DOCPORT_KUBECONFIG', 'kube-apiserver'), DATABASE_URL: await testDatabase(),
        S3_ENDPOINT: bucket.endpoint, S3_REGION: bucket.region, S3_ACCESS_KEY_ID: bucket.accessKeyId, S3_SECRET_ACCESS_KEY: bucket.secretAccessKey, S3_BUCKET: bucket.bucket,
        DOCPORT_API_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stack.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    stack.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 90_000;
    while (!output.includes('Docport is running')) {
      if (stack.exitCode !== null || Date.now() > deadline) throw new Error(`make run did not come up:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  after(async () => {
    if (stack && stack.exitCode === null) {
      stack.kill('SIGINT');
      await new Promise((r) => stack.once('exit', r));
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the credentials scripts need', async () => {
    const credentials = JSON.parse(await readFile(path.join(dir, '.data/dev/credentials.json'), 'utf8')) as Record<string, string>;
    for (const key of ['baseUrl', 'adminKey', 'assistantKey', 'projectId', 'domain']) assert.ok(credentials[key], key);
    assert.match(credentials.adminKey!, /^dpa_/);
    assert.match(credentials.assistantKey!, /^dps_/);
    assert.ok(!output.includes('"level":"error"'), output);
  });

  it('runs the walkthrough verbatim: export, poll, bundle, search, caller stats, kubectl', async () => {
    const script = await walkthroughScript();
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn('bash', ['-c', script], { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_NO_WARNINGS: '1' } });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
    assert.equal(result.code, 0, result.out);
    assert.match(result.out, /"status":"completed","progress":100,"pageCount":6/);
    assert.match(result.out, /"path":"\/guide\/configure\.html"/);
    assert.match(result.out, /\{"web":2,"api":1,"other":1,"total":4\}/);
    assert.match(result.out, /staticexport.docport.dev\/demo-docs condition met/);
    assert.match(result.out, /demo-docs\s+docs\.demo\.local\s+Completed\s+100\s+6\s+True/);
    assert.match(result.out, /staticExport:\n {2}enabled: true\n {2}bundleUrl: http/);
  });

  it('opens the downloaded bundle from file:// with working links and nothing loaded from outside', async () => {
    const index = path.join(dir, 'docs-offline', 'index.html');
    assert.ok(existsSync(index), 'the walkthrough unpacked the bundle');
    const browser = await chromium.launch({ executablePath: requireEnv('DOCPORT_CHROMIUM_PATH', 'Chromium'), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const outside: string[] = [];
      const failed: string[] = [];
      page.on('request', (r) => { if (!r.url().startsWith('file://')) outside.push(r.url()); });
      page.on('requestfailed', (r) => failed.push(r.url()));
      await page.goto(pathToFileURL(index).href);
      assert.equal(await page.title(), 'Home · Acme Docs');
      await page.click('text=configure routes');
      await page.waitForLoadState('load');
      assert.match(page.url(), /\/guide\/configure\.html#routes$/);
      assert.equal(await page.textContent('h1'), 'Configuring routes');
      assert.deepEqual(outside, []);
      assert.deepEqual(failed, []);
    } finally {
      await browser.close();
    }
  });

  it('stops everything on Ctrl-C', async () => {
    stack.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => stack.once('exit', resolve));
    assert.equal(code, 0, output);
    assert.match(output, /\[run\] stopped/);
  });
});
