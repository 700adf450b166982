// Idempotence across controller restarts, HelmRelease publication, and link refresh.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { ApiextensionsV1Api, BatchV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { KubernetesStaticExports } from '../../src/adapters/kubernetes/static-export-client.js';
import { S3ObjectStore } from '../../src/adapters/s3/s3-object-store.js';
import type { RenderResult } from '../../src/apis/render/contract.js';
import type { StaticExport } from '../../src/apis/staticexport/index.js';
import { renderName } from '../../src/controller/staticexport/names.js';
import { applyStaticExportCrd } from '../support/crd.js';
import { testNamespace, type TestNamespace } from '../support/kubernetes.js';
import { testBucket, type TestBucket } from '../support/s3.js';
import { eventually, startTestManager } from './support/controller-env.js';

/** A minimal Flux HelmRelease CRD (helm.toolkit.fluxcd.io/v2), enough to patch spec.values. */
async function ensureHelmReleaseCrd(ns: TestNamespace): Promise<void> {
  const api = ns.kubeConfig.makeApiClient(ApiextensionsV1Api);
  await api.createCustomResourceDefinition({ body: {
    metadata: { name: 'helmreleases.helm.toolkit.fluxcd.io' },
    spec: {
      group: 'helm.toolkit.fluxcd.io', scope: 'Namespaced', names: { kind: 'HelmRelease', plural: 'helmreleases', singular: 'helmrelease', listKind: 'HelmReleaseList' },
      versions: [{ name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } } }],
    },
  } }).catch((error: { code?: number }) => { if (error.code !== 409) throw error; });
  const objects = ns.kubeConfig.makeApiClient(CustomObjectsApi);
  await eventually('HelmRelease CRD served', async () => {
    await objects.listNamespacedCustomObject({ group: 'helm.toolkit.fluxcd.io', version: 'v2', plural: 'helmreleases', namespace: ns.namespace });
    return true;
  });
}

describe('controller restarts, HelmRelease publication and link refresh', () => {
  let ns: TestNamespace;
  let s3: TestBucket;
  let exports: KubernetesStaticExports;
  let batch: BatchV1Api;
  const now = () => new Date().toISOString();

  async function completeRender(e: StaticExport): Promise<void> {
    const store = S3ObjectStore.fromSettings({ ...s3, forcePathStyle: true });
    const g = e.metadata.generation!;
    const prefix = `exports/${ns.namespace}/${e.metadata.name}/g${g}/`;
    const archive = Buffer.from(`bundle ${e.metadata.name}`);
    const result: RenderResult = { outcome: 'succeeded', generation: g, archiveKey: `${prefix}bundle.zip`, format: 'zip', sizeBytes: archive.length, sha256: createHash('sha256').update(archive).digest('hex'), pageCount: 3, manifestKey: `${prefix}manifest.json`, completedAt: now() };
    await store.put(`${prefix}bundle.zip`, archive, 'application/zip');
    await store.put(`${prefix}result.json`, JSON.stringify(result), 'application/json');
    await batch.patchNamespacedJobStatus({ name: renderName(e.metadata.name, e.metadata.uid!, g), namespace: ns.namespace, body: { status: { succeeded: 1, startTime: now(), completionTime: now(), conditions: [{ type: 'Complete', status: 'True', lastProbeTime: now(), lastTransitionTime: now() }] } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  }

  before(async () => {
    ns = await testNamespace('ctl-restart');
    await applyStaticExportCrd(ns.kubeConfig);
    s3 = await testBucket();
    exports = new KubernetesStaticExports(ns.kubeConfig);
    batch = ns.kubeConfig.makeApiClient(BatchV1Api);
  });

  it('does not duplicate a running render after a controller restart', async () => {
    const first = await startTestManager({ kubeConfig: ns.kubeConfig, namespace: ns.namespace, s3 });
    const e = await exports.create({ namespace: ns.namespace, name: 'keep', labels: {}, spec: { domain: 'keep.example.com', origin: 'https://keep.example.com/' } });
    const selector = `docport.dev/staticexport-uid=${e.metadata.uid!}`;
    await eventually('Job', async () => (await batch.listNamespacedJob({ namespace: ns.namespace, labelSelector: selector })).items.length === 1);
    await eventually('Queued', async () => (await exports.get(ns.namespace, 'keep'))?.status?.phase === 'Queued');
    await first.stop();
    const second = await startTestManager({ kubeConfig: ns.kubeConfig, namespace: ns.namespace, s3 });
    try {
      await eventually('second controller ready', () => Promise.resolve(second.ready()));
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal((await batch.listNamespacedJob({ namespace: ns.namespace, labelSelector: selector })).items.length, 1);
      await completeRender((await exports.get(ns.namespace, 'keep'))!);
      await eventually('Completed by the second controller', async () => (await exports.get(ns.namespace, 'keep'))?.status?.phase === 'Completed');
    } finally {
      await second.stop();
    }
  });

  it('patches a Flux HelmRelease named in spec.publish', async () => {
    await ensureHelmReleaseCrd(ns);
    const objects = ns.kubeConfig.makeApiClient(CustomObjectsApi);
    await objects.createNamespacedCustomObject({ group: 'helm.toolkit.fluxcd.io', version: 'v2', plural: 'helmreleases', namespace: ns.namespace, body: {
      apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'docs' }, spec: { interval: '10m', chart: { spec: { chart: 'docport' } }, values: { replicaCount: 2 } },
    } });
    const manager = await startTestManager({ kubeConfig: ns.kubeConfig, namespace: ns.namespace, s3 });
    try {
      const e = await exports.create({ namespace: ns.namespace, name: 'hr', labels: {}, spec: { domain: 'hr.example.com', origin: 'https://hr.example.com/', version: '1.2', publish: { configMapName: 'hr-values', helmRelease: { name: 'docs' } } } });
      await eventually('Job', async () => (await batch.listNamespacedJob({ namespace: ns.namespace, labelSelector: `docport.dev/staticexport-uid=${e.metadata.uid!}` })).items.length === 1);
      await completeRender((await exports.get(ns.namespace, 'hr'))!);
      const release = await eventually('HelmRelease values', async () => {
        const hr = (await objects.getNamespacedCustomObject({ group: 'helm.toolkit.fluxcd.io', version: 'v2', plural: 'helmreleases', namespace: ns.namespace, name: 'docs' })) as { spec: { values: { replicaCount: number; staticExport?: Record<string, unknown> } } };
        return hr.spec.values.staticExport ? hr : undefined;
      });
      assert.equal(release.spec.values.replicaCount, 2, 'other values are kept');
      assert.equal(release.spec.values.staticExport?.enabled, true);
      assert.equal(release.spec.values.staticExport?.version, '1.2');
      assert.match(String(release.spec.values.staticExport?.bundleUrl), /X-Amz-Signature=/);
      const cm = await ns.kubeConfig.makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: 'hr-values', namespace: ns.namespace });
      assert.equal(cm.data?.bundleUrl, release.spec.values.staticExport?.bundleUrl);
    } finally {
      await manager.stop();
    }
  });

  it('re-presigns the published link before it expires, without rendering again', async () => {
    // 60 s links refreshed when under 95% of their life is left: every ~3 s.
    const manager = await startTestManager({ kubeConfig: ns.kubeConfig, namespace: ns.namespace, s3, decide: { presignTtlSeconds: 60, refreshFraction: 0.95 } });
    try {
      const e = await exports.create({ namespace: ns.namespace, name: 'fresh', labels: {}, spec: { domain: 'fresh.example.com', origin: 'https://fresh.example.com/' } });
      const selector = `docport.dev/staticexport-uid=${e.metadata.uid!}`;
      await eventually('Job', async () => (await batch.listNamespacedJob({ namespace: ns.namespace, labelSelector: selector })).items.length === 1);
      await completeRender((await exports.get(ns.namespace, 'fresh'))!);
      const core = ns.kubeConfig.makeApiClient(CoreV1Api);
      const read = () => core.readNamespacedConfigMap({ name: 'docport-static-export-fresh-example-com', namespace: ns.namespace }).catch(() => undefined);
      const first = await eventually('published', async () => (await read())?.data?.bundleUrl);
      const firstExpiry = (await exports.get(ns.namespace, 'fresh'))?.status?.bundle?.expiresAt;
      const second = await eventually('re-presigned', async () => {
        const url = (await read())?.data?.bundleUrl;
        return url && url !== first ? url : undefined;
      }, 15_000);
      assert.equal((await fetch(second)).status, 200);
      assert.notEqual((await exports.get(ns.namespace, 'fresh'))?.status?.bundle?.expiresAt, firstExpiry);
      assert.equal((await batch.listNamespacedJob({ namespace: ns.namespace, labelSelector: selector })).items.length, 1, 'no new render');
    } finally {
      await manager.stop();
    }
  });
});
