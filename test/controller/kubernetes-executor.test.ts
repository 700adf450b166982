// The controller against the real kube-apiserver with the Job executor. Nothing runs
// Pods here, so the test plays the Job controller (Job status) and the renderer
// (result.json and the archive in the real S3 server).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BatchV1Api, CoreV1Api, PatchStrategy, RbacAuthorizationV1Api, setHeaderOptions, type V1Job } from '@kubernetes/client-node';
import { KubernetesStaticExports } from '../../src/adapters/kubernetes/static-export-client.js';
import { RESULT_FILE, type RenderResult } from '../../src/apis/render/contract.js';
import type { StaticExport } from '../../src/apis/staticexport/index.js';
import type { Manager } from '../../src/controller/manager.js';
import { FINALIZER, renderName } from '../../src/controller/staticexport/names.js';
import { applyStaticExportCrd } from '../support/crd.js';
import { testNamespace, type TestNamespace } from '../support/kubernetes.js';
import { testBucket, type TestBucket } from '../support/s3.js';
import { S3ObjectStore } from '../../src/adapters/s3/s3-object-store.js';
import { JOB_SETTINGS, eventually, startTestManager } from './support/controller-env.js';

describe('StaticExport controller with render Jobs', () => {
  let ns: TestNamespace;
  let s3: TestBucket;
  let store: S3ObjectStore;
  let exports: KubernetesStaticExports;
  let batch: BatchV1Api;
  let core: CoreV1Api;
  let manager: Manager;
  const jobsOf = async (uid: string): Promise<V1Job[]> =>
    (await batch.listNamespacedJob({ namespace: ns.namespace, labelSelector: `docport.dev/staticexport-uid=${uid}` })).items.filter((j) => !j.metadata?.deletionTimestamp);
  const get = async (name: string): Promise<StaticExport | undefined> => exports.get(ns.namespace, name);
  const statusJob = (name: string, status: Record<string, unknown>) =>
    batch.patchNamespacedJobStatus({ name, namespace: ns.namespace, body: { status } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  const writeResult = async (e: StaticExport, outcome: 'succeeded' | 'failed'): Promise<Buffer> => {
    const g = e.metadata.generation!;
    const prefix = `exports/${ns.namespace}/${e.metadata.name}/g${g}/`;
    const archive = Buffer.from(`zip of generation ${g}`);
    const completedAt = new Date().toISOString();
    const result: RenderResult = outcome === 'succeeded'
      ? { outcome, generation: g, archiveKey: `${prefix}bundle.zip`, format: 'zip', sizeBytes: archive.length, sha256: createHash('sha256').update(archive).digest('hex'), pageCount: 7, manifestKey: `${prefix}manifest.json`, completedAt }
      : { outcome, generation: g, error: 'origin answered 503 for /', pageCount: 0, completedAt };
    if (outcome === 'succeeded') await store.put(`${prefix}bundle.zip`, archive, 'application/zip');
    await store.put(`${prefix}${RESULT_FILE}`, JSON.stringify(result), 'application/json');
    return archive;
  };
  const now = () => new Date().toISOString();

  before(async () => {
    ns = await testNamespace('ctl-jobs');
    await applyStaticExportCrd(ns.kubeConfig);
    s3 = await testBucket();
    store = S3ObjectStore.fromSettings({ ...s3, forcePathStyle: true });
    exports = new KubernetesStaticExports(ns.kubeConfig);
    batch = ns.kubeConfig.makeApiClient(BatchV1Api);
    core = ns.kubeConfig.makeApiClient(CoreV1Api);
    manager = await startTestManager({ kubeConfig: ns.kubeConfig, namespace: ns.namespace, s3 });
  });
  after(async () => {
    await manager?.stop();
  });

  it('creates an owned, restricted render Job and the renderer RBAC; the export is Queued', async () => {
    const created = await exports.create({ namespace: ns.namespace, name: 'docs', labels: {}, spec: { domain: 'docs.example.com', origin: 'https://docs.example.com/', version: 'v2' } });
    const uid = created.metadata.uid!;
    const [job] = await eventually('render Job', async () => (await jobsOf(uid)).length === 1 && jobsOf(uid));
    assert.equal(job!.metadata?.name, renderName('docs', uid, 1));
    assert.deepEqual(job!.metadata?.ownerReferences?.map((r) => ({ ...r })), [{ apiVersion: 'docport.dev/v1alpha1', kind: 'StaticExport', name: 'docs', uid, controller: true, blockOwnerDeletion: true }]);
    const spec = job!.spec!;
    assert.equal(spec.backoffLimit, 2);
    assert.equal(spec.activeDeadlineSeconds, 3600);
    assert.equal(spec.ttlSecondsAfterFinished, 86400);
    const pod = spec.template.spec!;
    assert.equal(pod.serviceAccountName, 'docport-renderer');
    assert.equal(pod.restartPolicy, 'Never');
    assert.equal(pod.securityContext?.runAsNonRoot, true);
    const container = pod.containers[0]!;
    assert.deepEqual(container.securityContext?.capabilities?.drop, ['ALL']);
    assert.equal(container.securityContext?.allowPrivilegeEscalation, false);
    assert.equal(container.securityContext?.readOnlyRootFilesystem, true);
    assert.deepEqual({ ...container.resources?.limits }, { cpu: '2', memory: '2Gi' });
    assert.deepEqual(container.envFrom?.map((e) => e.secretRef?.name), [JOB_SETTINGS.secretName]);
    const request = JSON.parse(container.env!.find((e) => e.name === 'RENDER_REQUEST')!.value!) as Record<string, unknown>;
    assert.deepEqual(request, { namespace: ns.namespace, name: 'docs', generation: 1, domain: 'docs.example.com', origin: 'https://docs.example.com/', format: 'zip', version: 'v2', outputPrefix: `exports/${ns.namespace}/docs/g1/` });
    assert.ok(!JSON.stringify(job).match(/SECRET_ACCESS_KEY"|secretAccessKey/), 'no credentials in the Job');

    const role = await ns.kubeConfig.makeApiClient(RbacAuthorizationV1Api).readNamespacedRole({ name: 'docport-renderer', namespace: ns.namespace });
    assert.deepEqual(role.rules?.map((r) => ({ apiGroups: r.apiGroups, resources: r.resources, verbs: r.verbs })), [{ apiGroups: ['docport.dev'], resources: ['staticexports/status'], verbs: ['get', 'patch'] }]);
    await core.readNamespacedServiceAccount({ name: 'docport-renderer', namespace: ns.namespace });

    const queued = await eventually('Queued status', async () => ((await get('docs'))?.status?.phase === 'Queued' ? get('docs') : undefined));
    assert.ok(queued.metadata.finalizers?.includes(FINALIZER));
    assert.equal(queued.status?.observedGeneration, 1);
    assert.equal(queued.status?.conditions?.find((c) => c.type === 'Reconciling')?.status, 'True');
  });

  it('follows the Job to Running, keeps renderer progress, and completes with a published, working link', async () => {
    const e = (await get('docs'))!;
    const jobName = renderName('docs', e.metadata.uid!, 1);
    await statusJob(jobName, { active: 1, startTime: now() });
    await eventually('Running', async () => (await get('docs'))?.status?.phase === 'Running');
    await exports.patchStatus(ns.namespace, 'docs', { progress: 64, pageCount: 5 });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await get('docs'))?.status?.progress, 64, 'the controller does not overwrite reported progress');

    const archive = await writeResult(e, 'succeeded');
    await statusJob(jobName, { active: 0, succeeded: 1, completionTime: now(), conditions: [{ type: 'Complete', status: 'True', lastProbeTime: now(), lastTransitionTime: now() }] });
    const done = await eventually('Completed and Ready', async () => {
      const current = await get('docs');
      return current?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' ? current : undefined;
    });
    const status = done.status!;
    assert.equal(status.phase, 'Completed');
    assert.equal(status.progress, 100);
    assert.equal(status.pageCount, 7);
    assert.equal(status.bundle?.sizeBytes, archive.length);
    assert.equal(status.bundle?.sha256, createHash('sha256').update(archive).digest('hex'));
    assert.ok(status.bundle?.expiresAt);
    assert.ok(!JSON.stringify(status).includes('X-Amz-Signature'), 'no link in status');

    const cm = await core.readNamespacedConfigMap({ name: 'docport-static-export-docs-example-com', namespace: ns.namespace });
    assert.equal(cm.metadata?.labels?.['reconcile.fluxcd.io/watch'], 'Enabled');
    assert.equal(cm.data?.enabled, 'true');
    assert.equal(cm.data?.version, 'v2');
    assert.match(cm.data?.['values.yaml'] ?? '', /^staticExport:\n {2}enabled: true\n {2}bundleUrl: http/);
    const download = await fetch(cm.data.bundleUrl!);
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), archive);

    const events = await eventually('events', async () => {
      const list = await core.listNamespacedEvent({ namespace: ns.namespace, fieldSelector: `involvedObject.name=docs` });
      const reasons = list.items.map((i) => i.reason);
      return ['JobCreated', 'RenderStarted', 'BundleReady', 'ValuesPublished'].every((r) => reasons.includes(r)) && reasons;
    });
    assert.ok(events);
  });

  it('renders again on a spec change, removing the old Job and keeping the last good bundle published until the new one is ready', async () => {
    const before = (await get('docs'))!;
    const oldUrl = (await core.readNamespacedConfigMap({ name: 'docport-static-export-docs-example-com', namespace: ns.namespace })).data!.bundleUrl;
    await ns.kubeConfig.makeApiClient((await import('@kubernetes/client-node')).CustomObjectsApi).patchNamespacedCustomObject(
      { group: 'docport.dev', version: 'v1alpha1', plural: 'staticexports', namespace: ns.namespace, name: 'docs', body: { spec: { version: 'v3' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const uid = before.metadata.uid!;
    const jobs = await eventually('only the generation-2 Job', async () => {
      const list = await jobsOf(uid);
      return list.length === 1 && list[0]!.metadata?.name === renderName('docs', uid, 2) && list;
    });
    assert.equal(jobs.length, 1);
    const queued = await eventually('generation 2 observed', async () => ((await get('docs'))?.status?.observedGeneration === 2 ? get('docs') : undefined));
    assert.equal(queued.status?.phase, 'Queued');
    assert.equal(queued.status?.bundle?.generation, 1, JSON.stringify(queued.status));
    const cm = await core.readNamespacedConfigMap({ name: 'docport-static-export-docs-example-com', namespace: ns.namespace });
    assert.equal(cm.data?.bundleUrl, oldUrl, 'values still point at the generation-1 bundle');
  });

  it('marks a failed render Failed and Stalled with the renderer\'s reason', async () => {
    const e = (await get('docs'))!;
    await writeResult(e, 'failed');
    await statusJob(renderName('docs', e.metadata.uid!, 2), { failed: 3, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastProbeTime: now(), lastTransitionTime: now() }] });
    const failed = await eventually('Failed', async () => ((await get('docs'))?.status?.phase === 'Failed' ? get('docs') : undefined));
    assert.equal(failed.status?.failureMessage, 'render failed: origin answered 503 for /');
    assert.equal(failed.status?.conditions?.find((c) => c.type === 'Stalled')?.status, 'True');
    assert.equal(failed.status?.conditions?.find((c) => c.type === 'Ready')?.reason, 'RenderFailed');
  });

  it('stalls an invalid spec without creating a Job', async () => {
    const created = await exports.create({ namespace: ns.namespace, name: 'bad', labels: {}, spec: { domain: 'docs.example.com', origin: 'https://docs.example.com/guide/', paths: ['/blog/'] } });
    const stalled = await eventually('Stalled', async () => ((await get('bad'))?.status?.conditions?.find((c) => c.type === 'Stalled') ? get('bad') : undefined));
    assert.equal(stalled.status?.conditions?.find((c) => c.type === 'Stalled')?.reason, 'InvalidSpec');
    assert.match(stalled.status?.failureMessage ?? '', /outside the origin path/);
    assert.deepEqual(await jobsOf(created.metadata.uid!), []);
  });

  it('on deletion removes the export\'s objects, withdraws its values and lets go', async () => {
    const e = (await get('docs'))!;
    assert.ok((await store.head(e.status!.bundle!.key)) !== undefined);
    await exports.delete(ns.namespace, 'docs');
    await eventually('StaticExport gone', async () => (await get('docs')) === undefined);
    assert.equal(await store.head(e.status!.bundle!.key), undefined);
    assert.equal(await store.head(`exports/${ns.namespace}/docs/g2/${RESULT_FILE}`), undefined);
    const cm = await core.readNamespacedConfigMap({ name: 'docport-static-export-docs-example-com', namespace: ns.namespace });
    assert.deepEqual({ enabled: cm.data?.enabled, bundleUrl: cm.data?.bundleUrl }, { enabled: 'false', bundleUrl: '' });
    assert.equal(cm.metadata?.annotations?.['docport.dev/published-uid'], undefined);
  });
});
