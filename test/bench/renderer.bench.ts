import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ChromiumPagePool } from '../../src/adapters/playwright/chromium-page-pool.js';
import { S3ObjectStore } from '../../src/adapters/s3/s3-object-store.js';
import { CHROMIUM_ARGS } from '../../src/devenv/chromium.js';
import { createLogger } from '../../src/observability/logger.js';
import { createArchive, uploadArchive } from '../../src/renderer/output/archive.js';
import { ProgressReporter } from '../../src/renderer/progress.js';
import { runExport } from '../../src/renderer/run-export.js';
import type { RendererSettings } from '../../src/renderer/settings.js';
import { serveDirectory } from '../renderer/support/static-server.js';
import type { BenchContext } from './run-benchmarks.js';

const DOCS = '/usr/share/doc/python3.11/html';
/** A bounded crawl of the real site, from its root (BENCH_RENDER_PAGES to change). */
const PAGES = Number(process.env.BENCH_RENDER_PAGES ?? 120);

/** CPU seconds of this process plus its reaped children (Chromium, once closed), from /proc. */
async function cpuSeconds(): Promise<number> {
  const fields = (await readFile('/proc/self/stat', 'utf8')).split(') ')[1]!.split(' ');
  // utime, stime, cutime, cstime are fields 14-17 (1-based), here 11-14 after the "(comm) " split.
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
}

/** Proportional resident memory (PSS) of this process and its Chromium descendants (not the stack's servers, also children). */
async function treeRssBytes(): Promise<number> {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = await readFile(`/proc/${entry}/stat`, 'utf8');
      const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      const stat = text.slice(text.lastIndexOf(') ') + 2).split(' ');
      parents.set(Number(entry), Number(stat[1]));
      if (Number(entry) !== process.pid && !/chrom/i.test(comm)) continue;
      // PSS, not RSS: Chromium's processes share most of their pages, RSS would count them many times.
      const pss = /^Pss:\s+(\d+) kB/m.exec(await readFile(`/proc/${entry}/smaps_rollup`, 'utf8'))?.[1];
      rss.set(Number(entry), Number(pss ?? 0) * 1024);
    } catch {
      // the process exited meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, i = 0; p !== undefined && p > 1 && i < 64; p = parents.get(p), i++) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, bytes] of rss) if (inTree(pid)) total += bytes;
  return total;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * The renderer on real documentation (Debian's python3.11-doc, served locally): pages/s,
 * CPU-seconds per page (Node + Chromium) and peak memory of the whole export, then
 * archive time of the same exported files with archiver against `zip -r` and `tar czf`.
 */
export async function rendererBenchmark(ctx: BenchContext): Promise<void> {
  const site = await serveDirectory(DOCS);
  const work = await mkdtemp(path.join(tmpdir(), 'docport-bench-render-'));
  const client = new S3Client({
    endpoint: ctx.env.DOCPORT_S3_ENDPOINT, region: ctx.env.DOCPORT_S3_REGION, forcePathStyle: true,
    credentials: { accessKeyId: ctx.env.DOCPORT_S3_ACCESS_KEY_ID!, secretAccessKey: ctx.env.DOCPORT_S3_SECRET_ACCESS_KEY! },
    requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await client.send(new CreateBucketCommand({ Bucket: 'bench-render' }));
  const store = new S3ObjectStore(client, 'bench-render');
  const log = createLogger('error');
  const settings: RendererSettings = {
    concurrency: 3, pageTimeoutMs: 30_000, pageRetries: 2, quietMs: 200, maxPages: PAGES, maxAssetBytes: 50 * 1024 * 1024,
    maxExportBytes: 2 * 1024 * 1024 * 1024, assetHosts: [], allowPrivateNetworks: true, workDir: work, chromiumPath: ctx.env.DOCPORT_CHROMIUM_PATH!,
  };
  let peak = 0;
  const sampler = setInterval(() => void treeRssBytes().then((b) => (peak = Math.max(peak, b))), 1000);
  try {
    const cpu0 = await cpuSeconds();
    const t0 = performance.now();
    const result = await runExport(
      { namespace: 'bench', name: 'python', generation: 1, domain: 'docs.python.bench', origin: `${site.origin}/`, format: 'zip', outputPrefix: 'exports/bench/python/g1/' },
      {
        store, settings, log, progress: new ProgressReporter(undefined, () => undefined, log),
        openBrowser: (proxyServer) => Promise.resolve(new ChromiumPagePool({ executablePath: settings.chromiumPath, args: CHROMIUM_ARGS, proxyServer, size: settings.concurrency, timeoutMs: settings.pageTimeoutMs, quietMs: settings.quietMs, log })),
      },
    );
    const wall = performance.now() - t0;
    const cpu = (await cpuSeconds()) - cpu0;
    clearInterval(sampler);
    if (result.outcome !== 'succeeded') throw new Error(`export failed: ${result.error}`);
    ctx.print(`site: python3.11-doc, crawl from / bounded at ${PAGES} pages, concurrency ${settings.concurrency}, quiet period ${settings.quietMs} ms`);
    ctx.print(`full export (crawl + render + assets + rewrite + S3 upload of files + zip upload): ${result.pageCount} pages in ${seconds(wall)}`);
    ctx.print(`  ${(result.pageCount / (wall / 1000)).toFixed(2)} pages/s, ${(cpu / result.pageCount).toFixed(3)} CPU-s/page (Node + Chromium), peak PSS ${mib(peak)} (Node + Chromium processes)`);

    // The same files, archived four ways.
    const tree = path.join(work, 'tree');
    await writeFile(path.join(work, 'bundle.zip'), (await store.read(result.archiveKey))!);
    execFileSync('unzip', ['-q', path.join(work, 'bundle.zip'), '-d', tree]);
    const files = execFileSync('find', ['.', '-type', 'f'], { cwd: tree, encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => f.slice(2)).sort();
    let bytes = 0;
    for (const f of files) bytes += (await stat(path.join(tree, f))).size;
    ctx.print(`archive of the exported tree: ${files.length} files, ${mib(bytes)}`);
    const time = async (label: string, fn: () => Promise<number>): Promise<void> => {
      const start = performance.now();
      const size = await fn();
      ctx.print(`  ${label.padEnd(44)} ${seconds(performance.now() - start).padStart(8)}  ${mib(size)}`);
    };
    const discard = async (format: 'zip' | 'tar.gz'): Promise<number> => {
      const archive = createArchive(format);
      let size = 0;
      const sink = new Writable({ write(chunk: Buffer, _e, cb) { size += chunk.length; cb(); } });
      for (const f of files) archive.file(path.join(tree, f), { name: f });
      const done = pipeline(archive, sink);
      await archive.finalize();
      await done;
      return size;
    };
    await time('archiver zip (level 6) to memory sink', () => discard('zip'));
    await time('zip -r -q (level 6) to a file', () => { execFileSync('zip', ['-r', '-q', path.join(work, 'ref.zip'), '.'], { cwd: tree }); return stat(path.join(work, 'ref.zip')).then((s) => s.size); });
    await time('archiver tar.gz (level 6) to memory sink', () => discard('tar.gz'));
    await time('tar czf to a file', () => { execFileSync('tar', ['czf', path.join(work, 'ref.tar.gz'), '.'], { cwd: tree }); return stat(path.join(work, 'ref.tar.gz')).then((s) => s.size); });
    await time('archiver zip streamed to S3 multipart + sha256', () => uploadArchive(store, 'bench/again.zip', 'zip', tree, files).then((r) => r.sizeBytes));
  } finally {
    clearInterval(sampler);
    await site.close();
    await rm(work, { recursive: true, force: true });
    client.destroy();
  }
}
