// The local executor end to end: the controller runs the render command as a child
// process, which reports progress on the resource and writes its outputs to S3.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { KubernetesStaticExports } from '../../src/adapters/kubernetes/static-export-client.js';
import type { Manager } from '../../src/controller/manager.js';
import { applyStaticExportCrd } from '../support/crd.js';
import { testNamespace, type TestNamespace } from '../support/kubernetes.js';
import { testBucket, type TestBucket } from '../support/s3.js';
import { FAKE_RENDERER, eventually, rendererEnv, startTestManager } from './support/controller-env.js';

describe('StaticExport controller with the local executor', () => {
  let ns: TestNamespace;
  let s3: TestBucket;
  let exports: KubernetesStaticExports;
  let manager: Manager;

  before(async () => {
    ns = await testNamespace('ctl-local');
    await applyStaticExportCrd(ns.kubeConfig);
    s3 = await testBucket();
    exports = new KubernetesStaticExports(ns.kubeConfig);
    manager = await startTestManager({
      kubeConfig: ns.kubeConfig, namespace: ns.namespace, s3,
      executor: { kind: 'local', command: [process.execPath, FAKE_RENDERER], env: rendererEnv(ns.kubeconfigPath, s3) },
    });
  });
  after(async () => {
    await manager?.stop();
  });

  it('renders through a child process to Completed, with its progress and a working published link', async () => {
    await exports.create({ namespace: ns.namespace, name: 'site', labels: {}, spec: { domain: 'site.example.com', origin: 'https://site.example.com/', format: 'tar.gz' } });
    const done = await eventually('Ready', async () => {
      const e = await exports.get(ns.namespace, 'site');
      return e?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' ? e : undefined;
    }, 30_000);
    assert.equal(done.status?.phase, 'Completed');
    assert.equal(done.status?.pageCount, 4);
    assert.equal(done.status?.bundle?.format, 'tar.gz');
    assert.match(done.status?.bundle?.key ?? '', /\/g1\/bundle\.tar\.gz$/);
    const cm = await ns.kubeConfig.makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: 'docport-static-export-site-example-com', namespace: ns.namespace });
    const response = await fetch(cm.data!.bundleUrl!);
    assert.equal(await response.text(), 'archive of site.example.com generation 1');
  });

  it('reports a crashed render as Failed with its exit code and last error line', async () => {
    await exports.create({ namespace: ns.namespace, name: 'crash', labels: {}, spec: { domain: 'crash.example.com', origin: 'https://crash.example.com/crash/' } });
    const failed = await eventually('Failed', async () => {
      const e = await exports.get(ns.namespace, 'crash');
      return e?.status?.phase === 'Failed' ? e : undefined;
    }, 30_000);
    assert.match(failed.status?.failureMessage ?? '', /exit code 3: chromium crashed and could not be restarted \(no result.json\)/);
  });

  it('reports a render that wrote a failed result with the renderer\'s reason', async () => {
    await exports.create({ namespace: ns.namespace, name: 'fail', labels: {}, spec: { domain: 'fail.example.com', origin: 'https://fail.example.com/fail/' } });
    const failed = await eventually('Failed', async () => {
      const e = await exports.get(ns.namespace, 'fail');
      return e?.status?.phase === 'Failed' ? e : undefined;
    }, 30_000);
    assert.equal(failed.status?.failureMessage, 'render failed: origin answered 503 for /');
    assert.equal(failed.status?.pageCount, 2);
  });
});
