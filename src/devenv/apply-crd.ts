import { ApiextensionsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { staticExportCrd } from '../apis/crd/staticexport-crd.js';

/** Server-side applies the StaticExport CRD and waits until it is Established. */
export async function applyCrd(kubeConfig: KubeConfig): Promise<void> {
  const api = kubeConfig.makeApiClient(ApiextensionsV1Api);
  const crd = staticExportCrd() as unknown as V1CustomResourceDefinition;
  const name = crd.metadata!.name!;
  await api.patchCustomResourceDefinition({ name, body: crd, fieldManager: 'docport-run', force: true }, setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply));
  for (let i = 0; i < 300; i++) {
    const current = await api.readCustomResourceDefinition({ name });
    if (current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`CRD ${name} not Established after 30 s`);
}

export async function ensureNamespace(kubeConfig: KubeConfig, name: string): Promise<void> {
  await kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } }).catch((error: { code?: number }) => {
    if (error.code !== 409) throw error;
  });
}
