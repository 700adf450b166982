// The controller survives a kube-apiserver restart mid-run: its watches fail, restart
// with backoff, and it carries on without duplicating renders. Runs on a private
// control plane so the restart does not disturb other test files.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BatchV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { KubernetesStaticExports } from '../../src/adapters/kubernetes/static-export-client.js';
import type { Manager } from '../../src/controller/manager.js';
import { startControlPlane, type LocalControlPlane } from '../../src/devenv/kube-apiserver.js';
import { applyStaticExportCrd } from '../support/crd.js';
import { testBucket } from '../support/s3.js';
import { eventually, startTestManager } from './support/controller-env.js';

describe('kube-apiserver restart while the controller runs', () => {
  let dir: string;
  let plane: LocalControlPlane;
  let manager: Manager | undefined;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docport-restart-'));
    plane = await startControlPlane(dir);
  });
  after(async () => {
    await manager?.stop();
    await plane?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('recovers its watches and creates no duplicate Jobs', async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(plane.kubeconfig);
    await applyStaticExportCrd(kubeConfig);
    const namespace = 'restart';
    await kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: namespace } } });
    manager = await startTestManager({ kubeConfig, namespace, s3: await testBucket() });
    const exports = new KubernetesStaticExports(kubeConfig);
    const batch = kubeConfig.makeApiClient(BatchV1Api);
    const jobs = async (uid: string) => (await batch.listNamespacedJob({ namespace, labelSelector: `docport.dev/staticexport-uid=${uid}` })).items.length;

    const before = await exports.create({ namespace, name: 'before', labels: {}, spec: { domain: 'a.example.com', origin: 'https://a.example.com/' } });
    await eventually('Job before the restart', async () => (await jobs(before.metadata.uid!)) === 1);

    await plane.restartApiServer();

    const afterRestart = await exports.create({ namespace, name: 'after', labels: {}, spec: { domain: 'b.example.com', origin: 'https://b.example.com/' } });
    await eventually('Job after the restart (watches recovered)', async () => (await jobs(afterRestart.metadata.uid!)) === 1, 45_000);
    await eventually('status after the restart', async () => (await exports.get(namespace, 'after'))?.status?.phase === 'Queued');
    assert.equal(await jobs(before.metadata.uid!), 1, 'the render from before the restart was not duplicated');
    assert.ok(manager.ready());
  });
});
