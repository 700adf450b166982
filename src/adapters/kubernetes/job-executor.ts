import { BatchV1Api, CoreV1Api, RbacAuthorizationV1Api, type KubeConfig, type V1Job } from '@kubernetes/client-node';
import type { RenderRequest } from '../../apis/render/contract.js';
import { LABELS } from '../../controller/staticexport/names.js';
import { RENDERER_ROLE_RULES, renderJob, type RenderJobSettings } from '../../controller/staticexport/render-job.js';
import type { RenderExecutor, RenderObservation, RenderOwner } from '../../ports/render-executor.js';
import { apiStatus, toDomainError } from './api-errors.js';

function observeJob(job: V1Job): RenderObservation {
  const name = job.metadata?.name ?? '';
  const status = job.status ?? {};
  const startTime = status.startTime ? new Date(status.startTime) : undefined;
  const completionTime = status.completionTime ? new Date(status.completionTime) : undefined;
  const failed = status.conditions?.find((c) => c.type === 'Failed' && c.status === 'True');
  if (status.conditions?.some((c) => c.type === 'Complete' && c.status === 'True')) {
    return { state: 'succeeded', name, ...(startTime ? { startTime } : {}), ...(completionTime ? { completionTime } : {}) };
  }
  if (failed) {
    const message = [failed.reason, failed.message].filter(Boolean).join(': ');
    const at = failed.lastTransitionTime ? new Date(failed.lastTransitionTime) : completionTime;
    return { state: 'failed', name, ...(message ? { message } : {}), ...(startTime ? { startTime } : {}), ...(at ? { completionTime: at } : {}) };
  }
  const running = (status.active ?? 0) > 0 || startTime !== undefined;
  return { state: running ? 'running' : 'pending', name, ...(startTime ? { startTime } : {}) };
}

/** Renders as batch/v1 Jobs; observation comes from the controller's Job informer cache. */
export class KubernetesJobExecutor implements RenderExecutor {
  readonly kind = 'kubernetes' as const;
  private readonly batch: BatchV1Api;
  private readonly core: CoreV1Api;
  private readonly rbac: RbacAuthorizationV1Api;
  private readonly prepared = new Set<string>();

  constructor(kubeConfig: KubeConfig, private readonly jobs: (namespace: string) => V1Job[], private readonly settings: RenderJobSettings) {
    this.batch = kubeConfig.makeApiClient(BatchV1Api);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.rbac = kubeConfig.makeApiClient(RbacAuthorizationV1Api);
  }

  observe(owner: RenderOwner, generation: number): Promise<{ current: RenderObservation; others: string[] }> {
    const mine = this.jobs(owner.namespace).filter((j) => j.metadata?.labels?.[LABELS.exportUid] === owner.uid && !j.metadata?.deletionTimestamp);
    const current = mine.find((j) => j.metadata?.labels?.[LABELS.generation] === String(generation));
    const others = mine.filter((j) => j !== current).map((j) => j.metadata?.name ?? '').filter(Boolean);
    return Promise.resolve({ current: current ? observeJob(current) : { state: 'absent' }, others });
  }

  async start(owner: RenderOwner, name: string, request: RenderRequest): Promise<void> {
    try {
      await this.batch.createNamespacedJob({ namespace: owner.namespace, body: renderJob(owner, name, request, this.settings) });
    } catch (error) {
      // The informer cache may lag behind a Job this controller (or its predecessor) created.
      if (apiStatus(error) !== 409) throw toDomainError(error, `create render Job ${owner.namespace}/${name}`);
    }
  }

  async remove(owner: RenderOwner, names: readonly string[]): Promise<void> {
    for (const name of names) {
      try {
        await this.batch.deleteNamespacedJob({ name, namespace: owner.namespace, propagationPolicy: 'Background' });
      } catch (error) {
        if (apiStatus(error) !== 404) throw toDomainError(error, `delete render Job ${owner.namespace}/${name}`);
      }
    }
  }

  async prepareNamespace(namespace: string): Promise<void> {
    if (this.prepared.has(namespace)) return;
    const name = this.settings.serviceAccountName;
    const labels = { [LABELS.managedBy]: 'docport-controller', [LABELS.component]: 'renderer' };
    const createOrKeep = async (what: string, create: () => Promise<unknown>): Promise<void> => {
      try {
        await create();
      } catch (error) {
        if (apiStatus(error) !== 409) throw toDomainError(error, `create ${what} ${namespace}/${name}`);
      }
    };
    await createOrKeep('ServiceAccount', () => this.core.createNamespacedServiceAccount({ namespace, body: { metadata: { name, namespace, labels } } }));
    await createOrKeep('Role', () => this.rbac.createNamespacedRole({ namespace, body: { metadata: { name, namespace, labels }, rules: RENDERER_ROLE_RULES } }));
    await createOrKeep('RoleBinding', () => this.rbac.createNamespacedRoleBinding({
      namespace,
      body: {
        metadata: { name, namespace, labels },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
        subjects: [{ kind: 'ServiceAccount', name, namespace }],
      },
    }));
    this.prepared.add(namespace);
  }
}
