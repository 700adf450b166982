// REST API figures on the real stack: job status and search at 100k indexed sections, and
// caller-stats at a large event count, each next to a baseline measured in the same run.
// Sizes: BENCH_SECTIONS (default 100000), BENCH_EVENTS (default 20000000), BENCH_REQUESTS (default 2000);
// BENCH_DEBUG=1 prints, for sample queries, the matching sections next to the results returned.
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { KubeConfig, CoreV1Api } from '@kubernetes/client-node';
import pg from 'pg';
import { KubernetesStaticExports } from '../../src/adapters/kubernetes/static-export-client.js';
import { PgAssistantEvents } from '../../src/adapters/postgres/pg-assistant-events.js';
import { PgIdentityStore } from '../../src/adapters/postgres/pg-identity-store.js';
import { PgSearchIndex } from '../../src/adapters/postgres/pg-search-index.js';
import { createPool } from '../../src/adapters/postgres/pool.js';
import { createS3Client } from '../../src/adapters/s3/s3-object-store.js';
import { startApiServer } from '../../src/api/server.js';
import type { CallerType } from '../../src/analytics/assistant-events.js';
import { parseConfig } from '../../src/config/config.js';
import { generateApiKey } from '../../src/identity/api-keys.js';
import { createLogger } from '../../src/observability/logger.js';
import type { SectionInput } from '../../src/ports/search-index.js';
import { applyStaticExportCrd } from '../support/crd.js';
import type { BenchContext } from './run-benchmarks.js';
import { percentile, timedPool } from './stats.js';

const SECTIONS = Number(process.env.BENCH_SECTIONS ?? 100_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = 8;
const DAY_MS = 24 * 3600 * 1000;

/** Deterministic pseudo-random numbers, so runs index the same text. */
function rng(seed: number): () => number {
  // mulberry32: 32-bit integer arithmetic only (a float LCG loses precision and repeats quickly).
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A vocabulary with a Zipf-like distribution: a few words are everywhere, most are rare. */
function vocabulary(size: number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ner', 'tos', 'va', 'quel', 'dri', 'sum', 'po', 'rex', 'tal', 'bin', 'gor', 'fe', 'yun'];
  return Array.from({ length: size }, (_, i) => {
    let word = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / 16)) word += syllables[n % 16];
    return `${word}x`;
  });
}

function sections(count: number, words: string[], random: () => number): SectionInput[] {
  const zipf = (): string => words[Math.min(words.length - 1, Math.floor(words.length ** random()) - 1)]!;
  const sentence = (n: number): string => Array.from({ length: n }, zipf).join(' ');
  return Array.from({ length: count }, (_, i) => {
    const page = Math.floor(i / 8);
    const title = sentence(3);
    return {
      path: `/docs/${page}/`, anchor: `s${i % 8}`, title, headings: [title, sentence(4)], content: sentence(60),
      language: i % 10 === 0 ? 'de' : 'en', tags: [i % 3 === 0 ? 'guide' : 'reference'],
    };
  });
}

async function measure(ctx: BenchContext, label: string, count: number, task: (i: number) => Promise<unknown>): Promise<number> {
  const items = Array.from({ length: count }, (_, i) => i);
  const start = performance.now();
  const latencies = await timedPool(items, CONCURRENCY, task);
  const rate = count / ((performance.now() - start) / 1000);
  ctx.print(`${label.padEnd(46)} ${rate.toFixed(0).padStart(6)} req/s  p50 ${percentile(latencies, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(latencies, 99).toFixed(1).padStart(6)} ms`);
  return rate;
}

async function expectOk(response: Response, what: string): Promise<unknown> {
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body;
}

export async function apiBenchmark(ctx: BenchContext): Promise<void> {
  const env = ctx.env;
  const admin = new pg.Client({ connectionString: env.DOCPORT_DATABASE_URL });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS bench_api');
  await admin.query('CREATE DATABASE bench_api');
  await admin.end();
  const databaseUrl = new URL(env.DOCPORT_DATABASE_URL!);
  databaseUrl.pathname = '/bench_api';
  const kc = new KubeConfig();
  kc.loadFromFile(env.DOCPORT_KUBECONFIG!);
  await applyStaticExportCrd(kc);
  await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'bench-api' } } });
  const s3 = { endpoint: env.DOCPORT_S3_ENDPOINT!, region: env.DOCPORT_S3_REGION!, accessKeyId: env.DOCPORT_S3_ACCESS_KEY_ID!, secretAccessKey: env.DOCPORT_S3_SECRET_ACCESS_KEY! };
  await createS3Client({ ...s3, bucket: 'bench-api', forcePathStyle: true }).send(new CreateBucketCommand({ Bucket: 'bench-api' }));

  const api = await startApiServer(parseConfig({
    LOG_LEVEL: 'warn', HTTP_HOST: '127.0.0.1', HTTP_PORT: '0', METRICS_PORT: '0',
    DATABASE_URL: databaseUrl.toString(), DATABASE_POOL_SIZE: '10',
    KUBECONFIG: env.DOCPORT_KUBECONFIG, EXPORT_NAMESPACE: 'bench-api',
    S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_BUCKET: 'bench-api', S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    // The figures are about the endpoints, not about being refused by the limits (the limit check itself still runs).
    RATE_LIMIT_ANALYTICS_PER_HOUR: '1000000000', RATE_LIMIT_EXPORT_PER_HOUR: '1000000000', RATE_LIMIT_SEARCH_PER_HOUR: '1000000000',
  }), createLogger('warn'));
  const pool = createPool(databaseUrl.toString(), 4);
  try {
    const identity = await PgIdentityStore.create({ pool });
    const org = await identity.createOrganization({ name: 'bench', plan: 'enterprise' });
    const project = await identity.createProject({ organizationId: org.id, domain: 'docs.bench.test', origin: 'https://docs.bench.test/' });
    const key = async (type: 'admin' | 'assistant'): Promise<string> => {
      const generated = generateApiKey(type);
      await identity.createApiKey({ organizationId: org.id, type, name: type, hash: generated.hash, displayPrefix: generated.displayPrefix });
      return generated.key;
    };
    const adminKey = await key('admin');
    const assistantKey = await key('assistant');
    const call = (method: string, path: string, k: string, body?: unknown): Promise<Response> =>
      fetch(`${api.url}${path}`, { method, headers: { authorization: `Bearer ${k}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });

    const healthz = await measure(ctx, `baseline: GET /healthz (n=${REQUESTS})`, REQUESTS, async () => expectOk(await fetch(`${api.url}/healthz`), 'healthz'));

    // Job status: each read is a GET on the kube-apiserver behind key lookup and rate limit.
    const jobIds: string[] = [];
    for (let i = 0; i < 50; i++) jobIds.push(((await expectOk(await call('POST', '/v1/static-export/jobs', adminKey, { domain: project.domain }), 'create job')) as { jobId: string }).jobId);
    const exports = new KubernetesStaticExports(kc);
    for (const [i, id] of jobIds.entries()) await exports.patchStatus('bench-api', id, { phase: 'Running', progress: i % 100, pageCount: i });
    const direct = await measure(ctx, `baseline: kube-apiserver GET StaticExport`, REQUESTS, (i) => exports.get('bench-api', jobIds[i % jobIds.length]!));
    const status = await measure(ctx, `GET /v1/static-export/jobs/{jobId} (n=${REQUESTS})`, REQUESTS, async (i) =>
      expectOk(await call('GET', `/v1/static-export/jobs/${jobIds[i % jobIds.length]}`, adminKey), 'job status'));
    ctx.print(`ratio job status / kube-apiserver GET: ${(status / direct).toFixed(2)}   / healthz: ${(status / healthz).toFixed(2)}`);

    // Search at SECTIONS indexed sections (one domain; a second domain of equal size shares the table).
    const words = vocabulary(20_000);
    const random = rng(7);
    const search = await PgSearchIndex.create({ pool });
    let t0 = performance.now();
    for (const [domain, version] of [[project.domain, 'v1'], ['other.bench.test', 'v1']] as const) {
      const all = sections(SECTIONS, words, random);
      await search.replaceSections(domain, version, all);
    }
    ctx.print(`indexed 2 x ${SECTIONS} sections in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await pool.query('VACUUM ANALYZE search_sections');
    // Query classes by how many sections they match: the cost of ranking grows with the matches.
    const pick = (lo: number, hi: number): string => words[lo + Math.floor(random() * (hi - lo))]!;
    const classes: Array<[string, () => string]> = [
      ['rare word (rank 5000-20000)', () => pick(5000, 20_000)],
      ['mid word (rank 100-1000)', () => pick(100, 1000)],
      ['two words (rank 20-200 and 200-2000)', () => `${pick(20, 200)} ${pick(200, 2000)}`],
      ['frequent word (rank 1-20, in most sections)', () => pick(0, 20)],
    ];
    for (const [label, make] of classes) {
      const queries = Array.from({ length: 100 }, make);
      let results = 0;
      let matched = 0;
      for (const q of queries.slice(0, 10)) {
        const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM search_sections WHERE domain = $1 AND document @@ websearch_to_tsquery('english', $2)`, [project.domain, q]);
        matched += rows[0]!.n;
        if (process.env.BENCH_DEBUG) {
          const hits = (await expectOk(await call('POST', `/discovery/v1/search/${project.domain}`, assistantKey, { query: q }), 'search')) as unknown[];
          ctx.print(`debug ${q}: ${rows[0]!.n} match, ${hits.length} returned`);
        }
      }
      const rate = await measure(ctx, `search, ${label}`, REQUESTS / 4, async (i) => {
        const hits = (await expectOk(await call('POST', `/discovery/v1/search/${project.domain}`, assistantKey, { query: queries[i % queries.length], filter: i % 5 === 0 ? { language: 'en' } : undefined }), 'search')) as unknown[];
        results += hits.length;
      });
      ctx.print(`  ~${Math.round(matched / 10)} of ${SECTIONS} sections match each query, ${(results / (REQUESTS / 4)).toFixed(1)} results returned; ratio / healthz ${(rate / healthz).toFixed(2)}`);
    }

    // Caller stats at EVENTS events: 90 days, 80% in the measured project, time-ordered like a live log.
    const events = await PgAssistantEvents.create({ pool });
    const others = await Promise.all(Array.from({ length: 4 }, (_, i) => identity.createProject({ organizationId: org.id, domain: `p${i}.bench.test`, origin: 'https://x.test/' })));
    const end = Date.parse('2024-06-01T00:00:00Z');
    const begin = end - 90 * DAY_MS;
    const callers: CallerType[] = ['web', 'web', 'web', 'api', 'api', 'other'];
    const batch = 50_000;
    const writers = 2;
    t0 = performance.now();
    let written = 0;
    await Promise.all(Array.from({ length: writers }, async (_, w) => {
      const r = rng(100 + w);
      for (let b = w; b * batch < EVENTS; b += writers) {
        const n = Math.min(batch, EVENTS - b * batch);
        const base = begin + (b * batch / EVENTS) * (end - begin);
        const span = (batch / EVENTS) * (end - begin);
        await events.record(Array.from({ length: n }, (_, i) => ({
          projectId: r() < 0.8 ? project.id : others[Math.floor(r() * 4)]!.id,
          occurredAt: new Date(base + (i / n) * span),
          caller: callers[Math.floor(r() * callers.length)]!,
        })));
        written += n;
        if (b % 40 === 0) ctx.print(`  ... ${written} events written, ${Math.round(written / ((performance.now() - t0) / 1000))} events/s`);
      }
    }));
    const generation = (performance.now() - t0) / 1000;
    ctx.print(`wrote ${EVENTS} events through PgAssistantEvents.record in ${generation.toFixed(0)} s (${Math.round(EVENTS / generation)} events/s)`);
    await pool.query('VACUUM ANALYZE assistant_events');
    await pool.query('VACUUM ANALYZE assistant_event_hourly');
    const ranges = [
      ['last 30 days (aligned)', new Date(end - 30 * DAY_MS), new Date(end)],
      ['30 days, unaligned ends', new Date(end - 30 * DAY_MS + 1234567), new Date(end - 2345678)],
      ['all 90 days', new Date(begin), new Date(end)],
    ] as const;
    for (const [label, from, to] of ranges) {
      const path = `/v1/analytics/${project.id}/assistant/caller-stats?dateFrom=${from.toISOString()}&dateTo=${to.toISOString()}`;
      const stats = (await expectOk(await call('GET', path, adminKey), 'caller-stats')) as { total: number };
      const rate = await measure(ctx, `caller-stats ${label}`, 300, async () => expectOk(await call('GET', path, adminKey), 'caller-stats'));
      // Baseline: the same count straight from the log through its covering index (what the rollup avoids).
      const naive: number[] = [];
      let naiveTotal = 0;
      for (let i = 0; i < 3; i++) {
        const s = performance.now();
        const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM assistant_events WHERE project_id = $1 AND occurred_at >= $2 AND occurred_at < $3', [project.id, from, to]);
        naive.push(performance.now() - s);
        naiveTotal = Number(rows[0]!.n);
      }
      if (naiveTotal !== stats.total) throw new Error(`caller-stats total ${stats.total} differs from the plain count ${naiveTotal}`);
      ctx.print(`  ${stats.total} events counted; baseline plain count over the log: p50 ${percentile(naive, 50).toFixed(0)} ms (${(1000 / percentile(naive, 50)).toFixed(1)} req/s) -> ratio ${(rate / (1000 / percentile(naive, 50))).toFixed(0)}x`);
    }
    const { rows: [size] } = await pool.query<{ log: string; rollup: string }>(
      `SELECT pg_size_pretty(pg_total_relation_size('assistant_events')) AS log, pg_size_pretty(pg_total_relation_size('assistant_event_hourly')) AS rollup`);
    ctx.print(`storage: log ${size!.log} (with index), hourly rollup ${size!.rollup}`);
  } finally {
    await pool.end();
    await api.stop();
  }
}
