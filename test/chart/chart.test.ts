// The Helm chart, rendered as `helm template` would (test/chart/helm-template), checked
// against values.schema.json, and every rendered object validated by a server-side
// dry-run on the real kube-apiserver: default values and each documented variant.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import { ApiextensionsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { Ajv } from 'ajv';
import { parseAllDocuments, stringify } from 'yaml';
import { valuesConfigMapData } from '../../src/controller/staticexport/helm-values.js';
import { testNamespace, type TestNamespace } from '../support/kubernetes.js';
import { CHART, helmTemplate } from './support/helm-template.js';

const SHA = 'b'.repeat(64);
const BASE = 'database:\n  url: postgres://docport:secret@postgres:5432/docport\ns3:\n  bucket: docs-bundles\n  endpoint: http://minio.storage.svc:9000\n  accessKeyId: AKIA\n  secretAccessKey: s3cr3t\n';

describe('Helm chart', () => {
  let ns: TestNamespace;
  let apiVersions: string[];
  const kubectl = (args: string[], input?: string) => new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    const child = execFile('kubectl', ['--kubeconfig', ns.kubeconfigPath, ...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || error.message}`)) : resolve({ stdout, stderr }));
    child.stdin?.end(input ?? '');
  });
  const render = (values: string[], namespace = ns.namespace) => helmTemplate({ namespace, values: [BASE, ...values], apiVersions });
  const objects = (manifests: string) => parseAllDocuments(manifests).map((d) => d.toJSON() as { kind: string; metadata: { name: string; namespace?: string }; spec?: Record<string, unknown> }).filter(Boolean);
  // Like Helm: objects without a namespace go to the release namespace; others keep theirs.
  const dryRun = async (manifests: string): Promise<string> => {
    const byNamespace = new Map<string, string[]>();
    for (const doc of parseAllDocuments(manifests)) {
      const namespace = (doc.toJSON() as { metadata?: { namespace?: string } } | null)?.metadata?.namespace ?? ns.namespace;
      byNamespace.set(namespace, [...(byNamespace.get(namespace) ?? []), doc.toString()]);
    }
    let out = '';
    for (const [namespace, docs] of byNamespace) out += (await kubectl(['apply', '--dry-run=server', '-n', namespace, '-f', '-'], docs.join('---\n'))).stdout;
    return out;
  };

  before(async () => {
    ns = await testNamespace('chart');
    // The chart's CRDs (Helm installs crds/ before templates), and a ServiceMonitor CRD for that variant.
    await kubectl(['apply', '--server-side', '-f', `${CHART}/crds/`]);
    await ns.kubeConfig.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({ body: {
      metadata: { name: 'servicemonitors.monitoring.coreos.com' },
      spec: { group: 'monitoring.coreos.com', scope: 'Namespaced', names: { kind: 'ServiceMonitor', plural: 'servicemonitors', singular: 'servicemonitor', listKind: 'ServiceMonitorList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } } }] },
    } }).catch((error: { code?: number }) => { if (error.code !== 409) throw error; });
    await ns.kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: `${ns.namespace}-exports` } } });
    apiVersions = (await kubectl(['api-versions'])).stdout.trim().split('\n');
    // Let the new CRD's endpoint come up before dry-runs use it.
    for (let i = 0; i < 50 && !(await kubectl(['get', 'servicemonitors', '-n', ns.namespace]).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 200));
  });

  it('renders valid values and objects the API server accepts, for the defaults', async () => {
    const manifests = await render([]);
    const kinds = objects(manifests).map((o) => `${o.kind}/${o.metadata.name}`);
    for (const expected of ['Deployment/docs-docport-api', 'Deployment/docs-docport-controller', 'Service/docs-docport-api', 'Secret/docs-docport-credentials',
      'ClusterRole/docs-docport-controller', 'Role/docs-docport-leader-election', 'Role/docs-docport-api', 'Role/docport-renderer', 'PodDisruptionBudget/docs-docport-api']) {
      assert.ok(kinds.includes(expected), `${expected} rendered (got ${kinds.join(', ')})`);
    }
    assert.ok(!kinds.some((k) => k.startsWith('Deployment/docs-docport-docs')), 'docs server off until staticExport.enabled');
    // 1.20 serves policy/v1beta1 only: the chart follows the cluster's capabilities.
    assert.match(manifests, /apiVersion: policy\/v1beta1\nkind: PodDisruptionBudget/);
    const out = await dryRun(manifests);
    assert.match(out, /deployment.apps\/docs-docport-controller created \(server dry run\)/);
  });

  it('validates every variant against values.schema.json and the API server', async () => {
    const schema = JSON.parse(await readFile(`${CHART}/values.schema.json`, 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const variants: Record<string, string[]> = {
      'self-hosted docs on': [`staticExport:\n  enabled: true\n  bundleUrl: https://s3.example.com/b/exports/x/bundle.zip?X-Amz-Signature=abc\n  version: v2\n  sha256: ${SHA}\n`],
      'air-gapped: bundle from in-cluster object storage, network policy': [
        `staticExport:\n  enabled: true\n  bundleUrl: http://minio.storage.svc:9000/docs-bundles/exports/x/bundle.tar.gz\nnetworkPolicy:\n  enabled: true\n  egressCIDRs: [10.0.0.0/8]\n  ingressFrom:\n    - matchLabels: { kubernetes.io/metadata.name: ingress }\n`],
      'one namespace, one replica, no PDB': [`controller:\n  watchNamespace: ${ns.namespace}\n  replicas: 1\napi:\n  replicas: 1\npodDisruptionBudget:\n  enabled: false\n`],
      'existing secret, service monitors, other export namespace': [`existingSecret: docport-creds\nmetrics:\n  serviceMonitor:\n    enabled: true\n    labels: { release: prometheus }\nexportNamespace: ${ns.namespace}-exports\n`],
      'local executor, API off': ['controller:\n  executor: local\n  replicas: 1\napi:\n  enabled: false\n'],
      // Flux valuesFrom with the operator's ConfigMap: its values.yaml key merged over the release values.
      'Flux valuesFrom with the published ConfigMap': ['staticExport:\n  enabled: false\n', valuesConfigMapData({ enabled: true, bundleUrl: 'http://minio:9000/b/exports/ns/docs/g3/bundle.zip?X-Amz-Expires=86400&X-Amz-Signature=f00', version: '3.1', sha256: SHA })['values.yaml']!],
    };
    for (const [name, values] of Object.entries(variants)) {
      const merged = JSON.parse(await helmTemplate({ namespace: ns.namespace, values: [BASE, ...values], apiVersions, mode: 'values' })) as unknown;
      assert.ok(validate(merged), `${name}: ${JSON.stringify(validate.errors)}`);
      const manifests = await render(values);
      await dryRun(manifests).catch((error: Error) => assert.fail(`${name}: ${error.message}`));
      if (name.startsWith('Flux')) {
        const docs = objects(manifests).find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'docs-docport-docs-bundle') as unknown as { data: Record<string, string> };
        assert.equal(docs.data.version, '3.1');
        assert.match(docs.data.url!, /X-Amz-Signature=f00$/);
      }
    }
  });

  it('rejects values the schema forbids and required values that are missing', async () => {
    const schema = JSON.parse(await readFile(`${CHART}/values.schema.json`, 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    for (const bad of ['staticExport:\n  enabled: true\n', 'presignTtlSeconds: 10\n', 'controller:\n  executor: ssh\n', 'staticExport:\n  enabled: true\n  bundleUrl: ftp://x\n', 'unknownKey: 1\n']) {
      const merged = JSON.parse(await helmTemplate({ namespace: ns.namespace, values: [BASE, bad], apiVersions, mode: 'values' })) as unknown;
      assert.equal(validate(merged), false, `schema accepted ${JSON.stringify(bad)}`);
    }
    await assert.rejects(helmTemplate({ namespace: ns.namespace, values: [], apiVersions }), /database.url is required/);
  });

  it('rolls the docs Pods for a new version or checksum, not for a re-presigned link', async () => {
    const annotation = async (url: string, version: string, sha: string) => {
      const manifests = await render([`staticExport:\n  enabled: true\n  bundleUrl: ${url}\n  version: ${version}\n  sha256: ${sha}\n`]);
      const deployment = objects(manifests).find((o) => o.kind === 'Deployment' && o.metadata.name === 'docs-docport-docs') as unknown as { spec: { template: { metadata: { annotations: Record<string, string> } } } };
      return deployment.spec.template.metadata.annotations['docport.dev/bundle'];
    };
    const first = await annotation('https://s3/b?sig=1', 'v1', SHA);
    assert.equal(await annotation('https://s3/b?sig=2', 'v1', SHA), first, 'a refreshed link keeps the Pods');
    assert.notEqual(await annotation('https://s3/b?sig=2', 'v2', SHA), first);
    assert.notEqual(await annotation('https://s3/b?sig=2', 'v1', 'c'.repeat(64)), first);
  });

  it('keeps credentials out of Deployments and documents every value', async () => {
    const manifests = await render([]);
    for (const o of objects(manifests).filter((x) => x.kind === 'Deployment')) assert.ok(!stringify(o).includes('s3cr3t') && !stringify(o).includes('docport:secret@'), `${o.metadata.name} inlines a secret`);
    const values = await readFile(`${CHART}/values.yaml`, 'utf8');
    const lines = values.split('\n');
    lines.forEach((line, i) => {
      if (/^\s*[A-Za-z][\w]*:/.test(line) && !/^\s*#/.test(line)) {
        const documented = lines.slice(0, i).reverse().find((l) => l.trim() !== '');
        const nestedParent = /:\s*$/.test(line);
        assert.ok(nestedParent || /^\s*#/.test(documented ?? '') || /^\s*(requests|limits|nodeSelector|tolerations|affinity):/.test(line), `values.yaml line ${i + 1} is undocumented: ${line.trim()}`);
      }
    });
    const notes = await helmTemplate({ namespace: ns.namespace, values: [BASE], apiVersions, mode: 'notes' });
    assert.match(notes, /kubectl get staticexports/);
  });
});
