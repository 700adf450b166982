import { CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { API_VERSION, GROUP, KIND, PLURAL, VERSION, type StaticExport, type StaticExportStatus } from '../../apis/staticexport/index.js';
import type { StaticExports } from '../../ports/static-exports.js';
import { apiStatus, toDomainError } from './api-errors.js';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

export class KubernetesStaticExports implements StaticExports {
  private readonly api: CustomObjectsApi;
  constructor(kubeConfig: KubeConfig) {
    this.api = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  async create(input: Parameters<StaticExports['create']>[0]): Promise<StaticExport> {
    const body = {
      apiVersion: API_VERSION, kind: KIND,
      metadata: { name: input.name, namespace: input.namespace, labels: input.labels, ...(input.annotations ? { annotations: input.annotations } : {}) },
      spec: input.spec,
    };
    try {
      return (await this.api.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace: input.namespace, body })) as StaticExport;
    } catch (error) {
      throw toDomainError(error, `create StaticExport ${input.namespace}/${input.name}`);
    }
  }

  async get(namespace: string, name: string): Promise<StaticExport | undefined> {
    try {
      return (await this.api.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace, name })) as StaticExport;
    } catch (error) {
      if (apiStatus(error) === 404) return undefined;
      throw toDomainError(error, `get StaticExport ${namespace}/${name}`);
    }
  }

  async list(namespace: string, labelSelector?: string): Promise<StaticExport[]> {
    try {
      const out = (await this.api.listNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace, ...(labelSelector ? { labelSelector } : {}) })) as { items: StaticExport[] };
      return out.items;
    } catch (error) {
      throw toDomainError(error, `list StaticExports in ${namespace}`);
    }
  }

  async patchStatus(namespace: string, name: string, status: StaticExportStatus, resourceVersion?: string): Promise<StaticExport> {
    try {
      // resourceVersion in a merge patch is a precondition (controller-runtime's optimistic lock): 409 when stale.
      const body = resourceVersion === undefined ? { status } : { metadata: { resourceVersion }, status };
      return (await this.api.patchNamespacedCustomObjectStatus({ group: GROUP, version: VERSION, plural: PLURAL, namespace, name, body }, mergePatch)) as StaticExport;
    } catch (error) {
      throw toDomainError(error, `patch status of StaticExport ${namespace}/${name}`);
    }
  }

  async replaceStatus(resource: StaticExport, status: StaticExportStatus): Promise<StaticExport> {
    const { namespace = '', name, resourceVersion } = resource.metadata;
    // PUT on /status: the API server keeps the stored spec and metadata, checks resourceVersion (409 when stale).
    const body = { apiVersion: API_VERSION, kind: KIND, metadata: { name, namespace, resourceVersion }, spec: resource.spec, status };
    try {
      return (await this.api.replaceNamespacedCustomObjectStatus({ group: GROUP, version: VERSION, plural: PLURAL, namespace, name, body })) as StaticExport;
    } catch (error) {
      throw toDomainError(error, `replace status of StaticExport ${namespace}/${name}`);
    }
  }

  async addFinalizer(resource: StaticExport, finalizer: string): Promise<string | undefined> {
    const { namespace = '', name, finalizers, resourceVersion } = resource.metadata;
    if (finalizers?.includes(finalizer)) return resourceVersion;
    // A JSON patch that tests resourceVersion appends to the list instead of replacing it.
    const body = [
      { op: 'test', path: '/metadata/resourceVersion', value: resourceVersion },
      finalizers ? { op: 'add', path: '/metadata/finalizers/-', value: finalizer } : { op: 'add', path: '/metadata/finalizers', value: [finalizer] },
    ];
    try {
      const out = (await this.api.patchNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace, name, body }, jsonPatch)) as StaticExport;
      return out.metadata.resourceVersion;
    } catch (error) {
      throw toDomainError(error, `add finalizer to StaticExport ${namespace}/${name}`);
    }
  }

  async removeFinalizer(resource: StaticExport, finalizer: string): Promise<void> {
    const { namespace = '', name, finalizers } = resource.metadata;
    const index = finalizers?.indexOf(finalizer) ?? -1;
    if (index < 0) return;
    const body = [
      { op: 'test', path: `/metadata/finalizers/${index}`, value: finalizer },
      { op: 'remove', path: `/metadata/finalizers/${index}` },
    ];
    try {
      await this.api.patchNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace, name, body }, jsonPatch);
    } catch (error) {
      if (apiStatus(error) !== 404) throw toDomainError(error, `remove finalizer from StaticExport ${namespace}/${name}`);
    }
  }

  async delete(namespace: string, name: string): Promise<void> {
    try {
      await this.api.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace, name, propagationPolicy: 'Background' });
    } catch (error) {
      if (apiStatus(error) !== 404) throw toDomainError(error, `delete StaticExport ${namespace}/${name}`);
    }
  }
}
