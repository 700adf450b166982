// Proof that the control plane is a real kube-apiserver: the generated CRD is
// accepted, its OpenAPI validation rejects bad specs, /status is a subresource,
// watches deliver changes, and kubectl shows the printer columns and field docs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions, Watch } from '@kubernetes/client-node';
import { GROUP, PLURAL, VERSION, API_VERSION, KIND } from '../../src/apis/staticexport/index.js';
import { applyStaticExportCrd } from '../support/crd.js';
import { testNamespace, type TestNamespace } from '../support/kubernetes.js';

const run = promisify(execFile);

describe('real kube-apiserver with the generated StaticExport CRD', () => {
  let ns: TestNamespace;
  let objects: CustomObjectsApi;
  const ref = () => ({ group: GROUP, version: VERSION, plural: PLURAL, namespace: ns.namespace });
  const kubectl = (...args: string[]) => run('kubectl', ['--kubeconfig', ns.kubeconfigPath, '-n', ns.namespace, ...args]);

  before(async () => {
    ns = await testNamespace('env-kube');
    await applyStaticExportCrd(ns.kubeConfig);
    objects = ns.kubeConfig.makeApiClient(CustomObjectsApi);
  });

  it('creates a StaticExport and applies schema defaults', async () => {
    const created = (await objects.createNamespacedCustomObject({
      ...ref(),
      body: { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'docs-v1' }, spec: { domain: 'docs.example.com', origin: 'https://docs.example.com/' } },
    })) as { spec: { format: string }; metadata: { generation: number } };
    assert.equal(created.spec.format, 'zip');
    assert.equal(created.metadata.generation, 1);
  });

  it('rejects specs that break the OpenAPI schema, naming the field', async () => {
    const bad = [
      [{ domain: 'Docs Example', origin: 'https://x.example/' }, 'spec.domain'],
      [{ domain: 'docs.example.com' }, 'spec.origin'],
      [{ domain: 'docs.example.com', origin: 'https://x.example/', format: 'rar' }, 'spec.format'],
      [{ domain: 'docs.example.com', origin: 'https://x.example/', paths: ['no-slash'] }, 'spec.paths'],
    ] as const;
    for (const [spec, field] of bad) {
      await assert.rejects(
        objects.createNamespacedCustomObject({ ...ref(), body: { apiVersion: API_VERSION, kind: KIND, metadata: { name: 'bad' }, spec } }),
        (error: { code?: number; body?: string }) => {
          assert.equal(error.code, 422, `expected 422 for ${JSON.stringify(spec)}`);
          assert.match(String(error.body), new RegExp(field.replace('.', '\\.')));
          return true;
        },
      );
    }
  });

  it('updates status only through the /status subresource and a watch sees it', async () => {
    const events: Array<{ type: string; phase?: string; progress?: number }> = [];
    const watch = new Watch(ns.kubeConfig);
    let sawCompleted!: () => void;
    const completed = new Promise<void>((resolve) => (sawCompleted = resolve));
    const controller = await watch.watch(
      `/apis/${GROUP}/${VERSION}/namespaces/${ns.namespace}/${PLURAL}`,
      { fieldSelector: 'metadata.name=docs-v1' },
      (type, obj: { status?: { phase?: string; progress?: number } }) => {
        events.push({ type, phase: obj.status?.phase, progress: obj.status?.progress });
        if (obj.status?.phase === 'Completed') sawCompleted();
      },
      () => undefined,
    );
    try {
      const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
      // A status change sent to the main resource is ignored by the API server.
      await objects.patchNamespacedCustomObject({ ...ref(), name: 'docs-v1', body: { status: { phase: 'Running' } } }, mergePatch);
      const afterMain = (await objects.getNamespacedCustomObject({ ...ref(), name: 'docs-v1' })) as { status?: unknown };
      assert.equal(afterMain.status, undefined);

      await objects.patchNamespacedCustomObjectStatus({ ...ref(), name: 'docs-v1', body: { status: { phase: 'Running', progress: 40, pageCount: 12 } } }, mergePatch);
      await objects.patchNamespacedCustomObjectStatus({
        ...ref(), name: 'docs-v1',
        body: { status: { phase: 'Completed', progress: 100, pageCount: 30, conditions: [
          { type: 'Ready', status: 'True', reason: 'BundleReady', message: 'bundle ready', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
        ] } },
      }, mergePatch);
      await Promise.race([completed, new Promise((_, reject) => setTimeout(() => reject(new Error('watch saw no Completed')), 10_000))]);
      // managedFields-only updates also produce MODIFIED events; compare the status transitions.
      const phases = events.map((e) => e.phase).filter((p, i, all) => i === 0 || p !== all[i - 1]);
      assert.deepEqual(phases, [undefined, 'Running', 'Completed']);
      assert.equal(events.find((e) => e.phase === 'Running')?.progress, 40);

      await assert.rejects(
        objects.patchNamespacedCustomObjectStatus({ ...ref(), name: 'docs-v1', body: { status: { progress: 101 } } }, mergePatch),
        (error: { code?: number }) => error.code === 422,
      );
    } finally {
      controller.abort();
    }
  });

  it('kubectl shows the printer columns and explains fields', async () => {
    const { stdout } = await kubectl('get', 'staticexports');
    const [header, row] = stdout.trim().split('\n');
    assert.match(header!, /^NAME\s+DOMAIN\s+PHASE\s+PROGRESS\s+PAGES\s+READY\s+AGE$/);
    assert.match(row!, /^docs-v1\s+docs\.example\.com\s+Completed\s+100\s+30\s+True\s+\S+$/);
    const sample = await kubectl('apply', '--dry-run=server', '-f', 'config/samples/staticexport.yaml');
    assert.match(sample.stdout, /staticexport.docport.dev\/docs-example-v2 created \(server dry run\)/);
    const short = await kubectl('get', 'stex', '-o', 'name');
    assert.equal(short.stdout.trim(), 'staticexport.docport.dev/docs-v1');
    // The API server publishes a new CRD's OpenAPI asynchronously, within seconds.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const explain = await kubectl('explain', 'staticexport.spec.origin').catch((error: { stderr?: string }) => ({ stdout: String(error.stderr) }));
      if (/Base URL of the live documentation site/.test(explain.stdout)) break;
      if (Date.now() > deadline) assert.fail(`kubectl explain never showed the field description: ${explain.stdout}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  });
});
