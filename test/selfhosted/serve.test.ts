// `docport serve` end to end: a bundle in the real S3 server behind a presigned link,
// downloaded, verified, extracted and served.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { S3ObjectStore } from '../../src/adapters/s3/s3-object-store.js';
import { parseConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { runDocsServer, type RunningDocsServer } from '../../src/selfhosted/run-serve.js';
import { testBucket, type TestBucket } from '../support/s3.js';
import { tarGzOf, zipOf } from './support/archives.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const CSS = `body { color: #333; }\n${'.rule { margin: 0 }\n'.repeat(200)}`;
const BUNDLE = zipOf([
  { name: 'index.html', data: Buffer.from('<!doctype html><title>Docs</title><h1>Home</h1>'), deflate: true },
  { name: 'guide/', mode: 0o040755 },
  { name: 'guide/index.html', data: Buffer.from('<h1>Guide</h1>') },
  { name: 'assets/app.css', data: Buffer.from(CSS), deflate: true },
  { name: '404.html', data: Buffer.from('<h1>Lost in the docs</h1>') },
]);
const SHA = createHash('sha256').update(BUNDLE).digest('hex');

/** A request with the path sent exactly as written. */
function raw(requestPath: string): Promise<{ status: number; body: string; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(new URL(base).port), path: requestPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ...(res.headers.location ? { location: res.headers.location } : {}) }));
    });
    req.on('error', reject);
    req.end();
  });
}
let base = '';

describe('self-hosted docs server', () => {
  let s3: TestBucket;
  let store: S3ObjectStore;
  let work: string;
  let server: RunningDocsServer;
  const log = createLogger('error');
  const start = (env: Record<string, string>) => runDocsServer(parseConfig({ HTTP_HOST: '127.0.0.1', HTTP_PORT: '0', METRICS_PORT: '9', BUNDLE_FETCH_ATTEMPTS: '2', SERVE_ROOT: path.join(work, `site-${Math.random()}`), ...env }), log);

  before(async () => {
    s3 = await testBucket();
    store = S3ObjectStore.fromSettings({ ...s3, forcePathStyle: true });
    work = await mkdtemp(path.join(tmpdir(), 'docport-serve-'));
    await store.put('exports/ns/docs/g1/bundle.zip', BUNDLE, 'application/zip');
    const { url } = await store.presignGet('exports/ns/docs/g1/bundle.zip', 600);
    const bundleDir = path.join(work, 'bundle');
    await rm(bundleDir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(bundleDir));
    await writeFile(path.join(bundleDir, 'url'), `${url}\n`);
    await writeFile(path.join(bundleDir, 'version'), 'v2\n');
    await writeFile(path.join(bundleDir, 'sha256'), SHA);
    server = await start({ BUNDLE_DIR: bundleDir });
    await server.ready;
    base = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('serves pages with content types, revalidation for HTML and the bundle version', async () => {
    const home = await fetch(`${base}/`);
    assert.equal(home.status, 200);
    assert.equal(home.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(home.headers.get('cache-control'), 'no-cache');
    assert.equal(home.headers.get('x-docport-version'), 'v2');
    assert.equal(home.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await home.text(), /<h1>Home<\/h1>/);
    const etag = home.headers.get('etag')!;
    assert.equal((await fetch(`${base}/`, { headers: { 'if-none-match': etag } })).status, 304);
    assert.equal(await (await fetch(`${base}/guide/`)).text(), '<h1>Guide</h1>');
    const redirect = await fetch(`${base}/guide`, { redirect: 'manual' });
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.get('location'), '/guide/');
    const health = await (await fetch(`${base}/healthz`)).json() as { status: string; version: string };
    assert.deepEqual(health, { status: 'ok', version: 'v2' });
  });

  it('compresses text with gzip or brotli as the client accepts, and caches assets', async () => {
    const raw = (headers: Record<string, string>) => new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      import('node:http').then(({ get }) => get(`${base}/assets/app.css`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject), reject);
    });
    const gz = await raw({ 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers['vary'], 'accept-encoding');
    assert.equal(gz.headers['cache-control'], 'public, max-age=3600');
    assert.equal(gunzipSync(gz.body).toString(), CSS);
    const br = await raw({ 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.body).toString(), CSS);
    const plain = await raw({});
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body.toString(), CSS);
  });

  it('answers 404 with the bundle\'s page, never reaches outside the root, and allows only GET and HEAD', async () => {
    const missing = await fetch(`${base}/nope.html`);
    assert.equal(missing.status, 404);
    assert.equal(await missing.text(), '<h1>Lost in the docs</h1>');
    // Raw request paths: fetch() would normalise the dot segments away before sending.
    for (const probe of ['/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc/passwd', '/guide/../../../etc/passwd', '/guide/%00index.html', '/%5c..%5cetc', '//etc/passwd']) {
      const response = await raw(probe);
      assert.ok(response.status === 404 || response.status === 400, `${probe} -> ${response.status}`);
      assert.ok(!response.body.includes('root:'), probe);
    }
    const redirect = await raw('/.//guide');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.location, '/guide/', 'a redirect never points at another host (//guide/)');
    assert.equal((await fetch(`${base}/`, { method: 'POST' })).status, 405);
    const head = await fetch(`${base}/`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });

  it('refuses a bundle whose checksum does not match, saying so', async () => {
    const { url } = await store.presignGet('exports/ns/docs/g1/bundle.zip', 600);
    const root = path.join(work, 'bad-sum');
    const other = await start({ BUNDLE_URL: url, BUNDLE_SHA256: 'c'.repeat(64), SERVE_ROOT: root });
    await assert.rejects(other.ready, /checksum mismatch: expected sha256 c{64}, got [0-9a-f]{64}/);
    assert.equal((await fetch(`http://127.0.0.1:${other.port}/healthz`)).status, 503);
    assert.deepEqual(await readdir(root), [], 'no downloaded archive and no partial site left behind');
    await other.stop();
  });

  it('fails at once on an expired link, without the signature in the message', async () => {
    const { url } = await store.presignGet('exports/ns/docs/g1/bundle.zip', 1);
    await new Promise((r) => setTimeout(r, 2100));
    const other = await start({ BUNDLE_URL: url });
    const started = Date.now();
    await assert.rejects(other.ready, (error: Error) => {
      assert.match(error.message, /HTTP 403 \(expired or invalid link/);
      assert.ok(!error.message.includes('X-Amz-Signature'));
      return true;
    });
    assert.ok(Date.now() - started < 1500, 'a 403 is not retried');
    await other.stop();
  });

  it('serves a tar.gz bundle from the CLI, and the CLI exits non-zero on a bad bundle', async () => {
    await store.put('exports/ns/docs/g2/bundle.tar.gz', tarGzOf([{ name: 'index.html', data: Buffer.from('<h1>Tarred</h1>') }]), 'application/gzip');
    const { url } = await store.presignGet('exports/ns/docs/g2/bundle.tar.gz', 600);
    const served = await start({ BUNDLE_URL: url, BUNDLE_VERSION: 'v3' });
    await served.ready;
    assert.equal(await (await fetch(`http://127.0.0.1:${served.port}/`)).text(), '<h1>Tarred</h1>');
    await served.stop();
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(process.execPath, [CLI, 'serve'], {
        env: { PATH: process.env.PATH, NODE_NO_WARNINGS: '1', HTTP_HOST: '127.0.0.1', HTTP_PORT: '0', METRICS_PORT: '9', BUNDLE_URL: url, BUNDLE_SHA256: 'd'.repeat(64), SERVE_ROOT: path.join(work, 'cli-site') },
      }, (error, stdout) => resolve({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout }));
    });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /"msg":"cannot serve the bundle".*checksum mismatch/);
    assert.ok(!result.stdout.includes('X-Amz-Signature='), 'no signature in logs');
  });
});
