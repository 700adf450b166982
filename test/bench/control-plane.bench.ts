import { CoreV1Api, CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { ApiextensionsV1Api, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { API_VERSION, GROUP, KIND, PLURAL, VERSION } from '../../src/apis/staticexport/index.js';
import type { BenchContext } from './run-benchmarks.js';
import { percentile, timedPool } from './stats.js';

const COUNT = 300;
const CONCURRENCY = 8;

/**
 * Cost of the CRD's schema validation and /status subresource on the real API server:
 * creating StaticExports and patching their status, against creating ConfigMaps
 * (a built-in type with no schema) as the baseline.
 */
export async function controlPlaneBenchmark(ctx: BenchContext): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromFile(ctx.env.DOCPORT_KUBECONFIG!);
  const crd = parse(await readFile(new URL('../../../crds/docport.dev_staticexports.yaml', import.meta.url), 'utf8')) as V1CustomResourceDefinition;
  await kc.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({ body: crd });
  const core = kc.makeApiClient(CoreV1Api);
  const objects = kc.makeApiClient(CustomObjectsApi);
  await core.createNamespace({ body: { metadata: { name: 'bench' } } });
  // The CRD needs a moment to be served.
  for (let i = 0; i < 100; i++) {
    const ok = await objects.listNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace: 'bench' }).then(() => true, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const ids = Array.from({ length: COUNT }, (_, i) => `o-${i}`);
  const measure = async (label: string, task: (id: string) => Promise<unknown>): Promise<number> => {
    const start = performance.now();
    const latencies = await timedPool(ids, CONCURRENCY, task);
    const seconds = (performance.now() - start) / 1000;
    const rate = COUNT / seconds;
    ctx.print(`${label.padEnd(34)} ${rate.toFixed(0).padStart(5)} ops/s  p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms`);
    return rate;
  };
  const baseline = await measure(`ConfigMap create (baseline, n=${COUNT})`, (id) =>
    core.createNamespacedConfigMap({ namespace: 'bench', body: { metadata: { name: id }, data: { enabled: 'true', bundleUrl: 'https://example.com/b.zip' } } }));
  const creates = await measure(`StaticExport create (n=${COUNT})`, (id) =>
    objects.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace: 'bench',
      body: { apiVersion: API_VERSION, kind: KIND, metadata: { name: id }, spec: { domain: 'docs.example.com', origin: 'https://docs.example.com/' } } }));
  const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  const patches = await measure(`StaticExport status patch (n=${COUNT})`, (id) =>
    objects.patchNamespacedCustomObjectStatus({ group: GROUP, version: VERSION, plural: PLURAL, namespace: 'bench', name: id,
      body: { status: { phase: 'Running', progress: 50, pageCount: 10 } } }, mergePatch));
  ctx.print(`ratio StaticExport create / ConfigMap create: ${(creates / baseline).toFixed(2)}`);
  ctx.print(`ratio status patch / ConfigMap create:        ${(patches / baseline).toFixed(2)}`);
}
