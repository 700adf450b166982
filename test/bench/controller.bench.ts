import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  ApiextensionsV1Api, BatchV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, PatchStrategy, Watch, setHeaderOptions,
  type V1CustomResourceDefinition, type V1Job,
} from '@kubernetes/client-node';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { parse } from 'yaml';
import { createS3Client } from '../../src/adapters/s3/s3-object-store.js';
import { API_VERSION, GROUP, KIND, PLURAL, VERSION } from '../../src/apis/staticexport/index.js';
import type { BenchContext } from './run-benchmarks.js';
import { percentile, timedPool } from './stats.js';

const COUNT = Number(process.env.BENCH_CONTROLLER_EXPORTS ?? 1000);
const CONCURRENCY = 8;
const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** Quantile estimate from a Prometheus histogram (linear within the bucket). */
function histogramQuantile(metrics: string, name: string, q: number): number {
  const buckets = [...metrics.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"[^}]*\\} (\\d+)`, 'gm'))].map((m) => ({ le: m[1] === '+Inf' ? Infinity : Number(m[1]), count: Number(m[2]) }));
  const total = buckets.at(-1)?.count ?? 0;
  const rank = q * total;
  let previous = { le: 0, count: 0 };
  for (const b of buckets) {
    if (b.count >= rank) return b.le === Infinity ? previous.le : previous.le + ((b.le - previous.le) * (rank - previous.count)) / Math.max(1, b.count - previous.count);
    previous = b;
  }
  return Number.NaN;
}

/**
 * Time from 1,000 StaticExports created to all their render Jobs existing, through a
 * real `docport controller` process, against the bench client creating the same number
 * of Jobs directly (the API server's own cost) as the baseline.
 */
export async function controllerBenchmark(ctx: BenchContext): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(ctx.env.DOCPORT_KUBECONFIG!);
  const crd = parse(await readFile(new URL('../../../crds/docport.dev_staticexports.yaml', import.meta.url), 'utf8')) as V1CustomResourceDefinition;
  await kc.makeApiClient(ApiextensionsV1Api).patchCustomResourceDefinition({ name: crd.metadata!.name!, body: crd, fieldManager: 'bench', force: true }, setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply));
  const core = kc.makeApiClient(CoreV1Api);
  const batch = kc.makeApiClient(BatchV1Api);
  const objects = kc.makeApiClient(CustomObjectsApi);
  for (const name of ['bench-baseline', 'bench-ctl']) await core.createNamespace({ body: { metadata: { name } } });
  const bucket = 'bench-controller';
  await createS3Client({ endpoint: ctx.env.DOCPORT_S3_ENDPOINT!, region: ctx.env.DOCPORT_S3_REGION!, bucket, forcePathStyle: true, accessKeyId: ctx.env.DOCPORT_S3_ACCESS_KEY_ID!, secretAccessKey: ctx.env.DOCPORT_S3_SECRET_ACCESS_KEY! })
    .send(new CreateBucketCommand({ Bucket: bucket }));
  for (let i = 0; i < 100; i++) {
    if (await objects.listNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace: 'bench-ctl' }).then(() => true, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const ids = Array.from({ length: COUNT }, (_, i) => `docs-${i}`);

  // Baseline: the same number of small Jobs created by the client itself.
  const baselineStart = performance.now();
  await timedPool(ids, CONCURRENCY, (id) => batch.createNamespacedJob({ namespace: 'bench-baseline', body: {
    metadata: { name: id }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
  } }));
  const baselineSeconds = (performance.now() - baselineStart) / 1000;

  const controller = spawn(process.execPath, [CLI, 'controller'], {
    env: {
      PATH: process.env.PATH, NODE_NO_WARNINGS: '1', KUBECONFIG: ctx.env.DOCPORT_KUBECONFIG, WATCH_NAMESPACE: 'bench-ctl', LEADER_ELECTION_NAMESPACE: 'bench-ctl',
      METRICS_PORT: '0', HTTP_HOST: '127.0.0.1', LOG_LEVEL: 'info', CONTROLLER_ID: 'bench',
      S3_ENDPOINT: ctx.env.DOCPORT_S3_ENDPOINT, S3_REGION: ctx.env.DOCPORT_S3_REGION, S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: ctx.env.DOCPORT_S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: ctx.env.DOCPORT_S3_SECRET_ACCESS_KEY,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let output = '';
    const metricsPort = await new Promise<number>((resolve, reject) => {
      controller.stdout.on('data', (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-100_000);
        const match = /"msg":"controller started".*"metricsPort":(\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      controller.once('exit', () => reject(new Error(`controller exited:\n${output}`)));
    });
    for (let i = 0; i < 200; i++) {
      if ((await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).includes('leader_election_master_status{name="staticexport"} 1')) break;
      await new Promise((r) => setTimeout(r, 100));
    }

    const created = new Map<string, number>();
    const jobSeen = new Map<string, number>();
    let allSeen!: () => void;
    const everyJob = new Promise<void>((resolve) => (allSeen = resolve));
    const watch = await new Watch(kc).watch('/apis/batch/v1/namespaces/bench-ctl/jobs', {}, (type: string, job: V1Job) => {
      const owner = job.metadata?.ownerReferences?.[0]?.name;
      if (type === 'ADDED' && owner && !jobSeen.has(owner)) {
        jobSeen.set(owner, performance.now());
        if (jobSeen.size === COUNT) allSeen();
      }
    }, () => undefined);
    const start = performance.now();
    await timedPool(ids, CONCURRENCY, async (id) => {
      await objects.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace: 'bench-ctl',
        body: { apiVersion: API_VERSION, kind: KIND, metadata: { name: id }, spec: { domain: 'docs.example.com', origin: 'https://docs.example.com/' } } });
      created.set(id, performance.now());
    });
    const createSeconds = (performance.now() - start) / 1000;
    await everyJob;
    const allSeconds = (performance.now() - start) / 1000;
    watch.abort();
    const latencies = ids.map((id) => jobSeen.get(id)! - created.get(id)!);
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const status = await readFile(`/proc/${controller.pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const reconciles = [...metrics.matchAll(/^controller_runtime_reconcile_total\{[^}]*\} (\d+)/gm)].reduce((s, m) => s + Number(m[1]), 0);

    ctx.print(`baseline: client creates ${COUNT} Jobs directly        ${baselineSeconds.toFixed(1)} s (${(COUNT / baselineSeconds).toFixed(0)}/s)`);
    ctx.print(`${COUNT} StaticExports created by the client         ${createSeconds.toFixed(1)} s`);
    ctx.print(`first create -> all ${COUNT} render Jobs exist        ${allSeconds.toFixed(1)} s (${(COUNT / allSeconds).toFixed(0)} exports/s)`);
    ctx.print(`ratio (all Jobs via controller) / (baseline Jobs):  ${(allSeconds / baselineSeconds).toFixed(2)}`);
    ctx.print(`create -> Job latency per export                   p50 ${percentile(latencies, 50).toFixed(0)} ms  p99 ${percentile(latencies, 99).toFixed(0)} ms`);
    ctx.print(`reconcile time (controller histogram, ${reconciles} reconciles) p50 ${(histogramQuantile(metrics, 'controller_runtime_reconcile_time_seconds', 0.5) * 1000).toFixed(0)} ms  p99 ${(histogramQuantile(metrics, 'controller_runtime_reconcile_time_seconds', 0.99) * 1000).toFixed(0)} ms`);
    ctx.print(`controller memory                                  peak RSS ${(kb('VmHWM') / 1024).toFixed(0)} MiB, now ${(kb('VmRSS') / 1024).toFixed(0)} MiB`);
  } finally {
    controller.kill('SIGTERM');
    await new Promise((r) => controller.once('exit', r));
  }
}
