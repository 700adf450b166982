import { readFile } from 'node:fs/promises';
import { ApiextensionsV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { parse } from 'yaml';

const CRD_FILE = new URL('../../../crds/docport.dev_staticexports.yaml', import.meta.url);

/** Server-side applies the committed, generated CRD and waits until it is Established. */
export async function applyStaticExportCrd(kubeConfig: KubeConfig): Promise<V1CustomResourceDefinition> {
  const crd = parse(await readFile(CRD_FILE, 'utf8')) as V1CustomResourceDefinition;
  const api = kubeConfig.makeApiClient(ApiextensionsV1Api);
  const name = crd.metadata!.name!;
  await api.patchCustomResourceDefinition(
    { name, body: crd, fieldManager: 'docport-tests', force: true },
    setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
  );
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const current = await api.readCustomResourceDefinition({ name });
    if (current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return current;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`CRD ${name} not Established after 30 s`);
}
