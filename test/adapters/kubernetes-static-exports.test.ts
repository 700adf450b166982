import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { KubernetesStaticExports } from '../../src/adapters/kubernetes/static-export-client.js';
import { ConflictError, InputError } from '../../src/domain/errors.js';
import { applyStaticExportCrd } from '../support/crd.js';
import { testNamespace, type TestNamespace } from '../support/kubernetes.js';

describe('KubernetesStaticExports against the real API server', () => {
  let ns: TestNamespace;
  let exports: KubernetesStaticExports;
  const spec = { domain: 'docs.example.com', origin: 'https://docs.example.com/' };
  before(async () => {
    ns = await testNamespace('adapter-se');
    await applyStaticExportCrd(ns.kubeConfig);
    exports = new KubernetesStaticExports(ns.kubeConfig);
  });

  it('creates, gets and lists by label; a second create of the name conflicts', async () => {
    const created = await exports.create({ namespace: ns.namespace, name: 'e1', labels: { 'docport.dev/organization': 'o1' }, spec });
    assert.equal(created.spec.format, 'zip');
    assert.equal((await exports.get(ns.namespace, 'e1'))?.metadata.uid, created.metadata.uid);
    assert.equal(await exports.get(ns.namespace, 'nope'), undefined);
    assert.deepEqual((await exports.list(ns.namespace, 'docport.dev/organization=o1')).map((e) => e.metadata.name), ['e1']);
    assert.deepEqual(await exports.list(ns.namespace, 'docport.dev/organization=o2'), []);
    await assert.rejects(exports.create({ namespace: ns.namespace, name: 'e1', labels: {}, spec }), ConflictError);
  });

  it('rejects an invalid spec as InputError', async () => {
    await assert.rejects(exports.create({ namespace: ns.namespace, name: 'bad', labels: {}, spec: { ...spec, format: 'rar' as 'zip' } }), InputError);
  });

  it('patches status, with an optimistic lock when given a resourceVersion', async () => {
    const current = (await exports.get(ns.namespace, 'e1'))!;
    const patched = await exports.patchStatus(ns.namespace, 'e1', { phase: 'Running', progress: 10 }, current.metadata.resourceVersion);
    assert.equal(patched.status?.phase, 'Running');
    await assert.rejects(exports.patchStatus(ns.namespace, 'e1', { phase: 'Failed' }, current.metadata.resourceVersion), ConflictError);
    assert.equal((await exports.get(ns.namespace, 'e1'))?.status?.phase, 'Running');
  });

  it('deletes idempotently', async () => {
    await exports.delete(ns.namespace, 'e1');
    await exports.delete(ns.namespace, 'e1');
    assert.equal(await exports.get(ns.namespace, 'e1'), undefined);
  });
});
