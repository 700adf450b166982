// A deletion whose cleanup fails keeps the finalizer, says why in a condition, and
// retries with backoff until the cleanup can be done.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { BatchV1Api } from '@kubernetes/client-node';
import { KubernetesStaticExports } from '../../src/adapters/kubernetes/static-export-client.js';
import { FINALIZER } from '../../src/controller/staticexport/names.js';
import { applyStaticExportCrd } from '../support/crd.js';
import { testNamespace, type TestNamespace } from '../support/kubernetes.js';
import { testBucket, type TestBucket } from '../support/s3.js';
import { eventually, startTestManager } from './support/controller-env.js';

describe('deletion with a failing cleanup', () => {
  let ns: TestNamespace;
  let s3: TestBucket;
  before(async () => {
    ns = await testNamespace('ctl-delete');
    await applyStaticExportCrd(ns.kubeConfig);
    s3 = await testBucket();
  });

  it('keeps retrying with the reason in a condition, then lets go once the store works', async () => {
    const exports = new KubernetesStaticExports(ns.kubeConfig);
    const good = await startTestManager({ kubeConfig: ns.kubeConfig, namespace: ns.namespace, s3 });
    const e = await exports.create({ namespace: ns.namespace, name: 'gone', labels: {}, spec: { domain: 'gone.example.com', origin: 'https://gone.example.com/' } });
    await eventually('finalizer', async () => (await exports.get(ns.namespace, 'gone'))?.metadata.finalizers?.includes(FINALIZER));
    await good.stop();

    const broken = await startTestManager({ kubeConfig: ns.kubeConfig, namespace: ns.namespace, s3: { ...s3, secretAccessKey: 'wrong-secret' } });
    try {
      await exports.delete(ns.namespace, 'gone');
      const stuck = await eventually('CleanupFailed condition', async () => {
        const current = await exports.get(ns.namespace, 'gone');
        return current?.status?.conditions?.find((c) => c.reason === 'CleanupFailed') ? current : undefined;
      });
      const ready = stuck.status!.conditions!.find((c) => c.type === 'Ready')!;
      assert.equal(ready.status, 'False');
      assert.match(ready.message, /deleteObjects: object storage delete exports\/.*HTTP 403/);
      assert.ok(!ready.message.includes('wrong-secret'));
      assert.ok(stuck.metadata.finalizers?.includes(FINALIZER));
      assert.equal((await ns.kubeConfig.makeApiClient(BatchV1Api).listNamespacedJob({ namespace: ns.namespace, labelSelector: `docport.dev/staticexport-uid=${e.metadata.uid!}` })).items.filter((j) => !j.metadata?.deletionTimestamp).length, 0, 'renders removed first');
    } finally {
      await broken.stop();
    }
    const fixed = await startTestManager({ kubeConfig: ns.kubeConfig, namespace: ns.namespace, s3 });
    try {
      await eventually('deleted', async () => (await exports.get(ns.namespace, 'gone')) === undefined);
    } finally {
      await fixed.stop();
    }
  });
});
