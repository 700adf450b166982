import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import type { ValuesConfigMap, ValuesPublisher } from '../../ports/values-publisher.js';
import { apiStatus, toDomainError } from './api-errors.js';

const FIELD_MANAGER = 'docport-controller';

export class KubernetesValuesPublisher implements ValuesPublisher {
  private readonly core: CoreV1Api;
  private readonly objects: CustomObjectsApi;
  constructor(kubeConfig: KubeConfig, private readonly helmReleaseApiVersion = 'helm.toolkit.fluxcd.io/v2') {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.objects = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  async read(namespace: string, name: string): Promise<ValuesConfigMap | undefined> {
    try {
      const cm = await this.core.readNamespacedConfigMap({ name, namespace });
      return { name, data: cm.data ?? {}, annotations: cm.metadata?.annotations ?? {} };
    } catch (error) {
      if (apiStatus(error) === 404) return undefined;
      throw toDomainError(error, `read ConfigMap ${namespace}/${name}`);
    }
  }

  async writeConfigMap(namespace: string, name: string, content: { data: Record<string, string>; labels: Record<string, string>; annotations: Record<string, string> }): Promise<void> {
    // Server-side apply: one idempotent call that creates or updates, and drops the
    // fields this manager set before but no longer sets; others' fields are kept.
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: content.labels, annotations: content.annotations }, data: content.data };
    try {
      await this.core.patchNamespacedConfigMap({ name, namespace, body, fieldManager: FIELD_MANAGER, force: true }, setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply));
    } catch (error) {
      throw toDomainError(error, `apply ConfigMap ${namespace}/${name}`);
    }
  }

  async patchHelmRelease(namespace: string, name: string, staticExport: Record<string, unknown>): Promise<void> {
    const [group, version] = this.helmReleaseApiVersion.split('/') as [string, string];
    try {
      await this.objects.patchNamespacedCustomObject(
        { group, version, plural: 'helmreleases', namespace, name, body: { spec: { values: { staticExport } } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    } catch (error) {
      throw toDomainError(error, `patch HelmRelease ${namespace}/${name}`);
    }
  }
}
