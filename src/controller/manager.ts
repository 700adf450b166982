import { BatchV1Api, CustomObjectsApi, type KubeConfig, type KubernetesListObject, type KubernetesObject, type V1Job } from '@kubernetes/client-node';
import type { Registry } from 'prom-client';
import { GROUP, PLURAL, VERSION, type StaticExport } from '../apis/staticexport/index.js';
import { resilientInformer, type Informer } from '../adapters/kubernetes/informer.js';
import { KubernetesJobExecutor } from '../adapters/kubernetes/job-executor.js';
import { KubernetesLeaseLock } from '../adapters/kubernetes/lease-lock.js';
import { KubernetesStaticExports } from '../adapters/kubernetes/static-export-client.js';
import { KubernetesEventRecorder } from '../adapters/kubernetes/event-recorder.js';
import { KubernetesValuesPublisher } from '../adapters/kubernetes/values-publisher.js';
import { LocalProcessExecutor } from '../adapters/local/local-executor.js';
import type { Logger } from '../observability/logger.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { RenderExecutor } from '../ports/render-executor.js';
import { Workers } from './runtime/controller.js';
import { DEFAULT_TIMINGS, LeaderElector, type LeaderElectionTimings } from './runtime/leader-elector.js';
import { createControllerMetrics } from './runtime/metrics.js';
import { WorkQueue } from './runtime/work-queue.js';
import { LABELS, MANAGED_BY, CONTROLLER_NAME } from './staticexport/names.js';
import type { RenderJobSettings } from './staticexport/render-job.js';
import { StaticExportReconciler } from './staticexport/reconciler.js';
import type { DecideSettings } from './staticexport/snapshot.js';

export interface ManagerOptions {
  kubeConfig: KubeConfig;
  objects: ObjectStore;
  log: Logger;
  registry: Registry;
  identity: string;
  /** Watch one namespace, or all when undefined. */
  namespace?: string;
  workers: number;
  resyncMs: number;
  decide: DecideSettings;
  helmReleaseApiVersion: string;
  executor: { kind: 'kubernetes'; job: RenderJobSettings } | { kind: 'local'; command: readonly string[]; env: Record<string, string> };
  leaderElection?: { namespace: string; leaseName: string; timings?: LeaderElectionTimings };
  /** Called when leadership is lost without stop(): the process should exit and be restarted. */
  onLostLeadership?: () => void;
  now?: () => Date;
}

export interface Manager {
  ready(): boolean;
  isLeader(): boolean;
  stop(): Promise<void>;
}

const keyOf = (namespace: string | undefined, name: string | undefined): string => `${namespace ?? ''}/${name ?? ''}`;

/**
 * Wires the StaticExport controller: informers (StaticExports, owned Jobs), a work
 * queue with workers, leader election and resync. Only the leader reconciles; caches
 * run on every replica so a follower takes over warm.
 */
export async function startManager(options: ManagerOptions): Promise<Manager> {
  const { kubeConfig, log } = options;
  const metrics = createControllerMetrics(options.registry, CONTROLLER_NAME, options.workers);
  const queue = new WorkQueue(undefined, metrics.queue);
  let leading = !options.leaderElection;
  let stopping = false;
  const enqueue = (key: string): void => {
    if (leading && !stopping) queue.add(key);
  };

  const objectsApi = kubeConfig.makeApiClient(CustomObjectsApi);
  const ns = options.namespace;
  const exportsPath = ns ? `/apis/${GROUP}/${VERSION}/namespaces/${ns}/${PLURAL}` : `/apis/${GROUP}/${VERSION}/${PLURAL}`;
  // The cache holds StaticExports as the API server sends them; our zod-derived type describes them.
  const exportsInformer = resilientInformer<KubernetesObject>(
    kubeConfig,
    exportsPath,
    async () => (await (ns
      ? objectsApi.listNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace: ns })
      : objectsApi.listClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL }))) as KubernetesListObject<KubernetesObject>,
    { onUpsert: (o) => enqueue(keyOf(o.metadata?.namespace, o.metadata?.name)), onDelete: () => undefined },
    log.child({ informer: 'staticexports' }),
  ) as unknown as Informer<StaticExport>;

  let jobsInformer: Informer<V1Job> | undefined;
  let executor: RenderExecutor;
  let localExecutor: LocalProcessExecutor | undefined;
  if (options.executor.kind === 'kubernetes') {
    const batch = kubeConfig.makeApiClient(BatchV1Api);
    const selector = `${LABELS.managedBy}=${MANAGED_BY}`;
    const ownerKey = (job: V1Job): string | undefined => {
      const owner = job.metadata?.ownerReferences?.find((r) => r.controller && r.kind === 'StaticExport');
      return owner ? keyOf(job.metadata?.namespace, owner.name) : undefined;
    };
    const onJob = (job: V1Job): void => {
      const key = ownerKey(job);
      if (key) enqueue(key);
    };
    jobsInformer = resilientInformer<V1Job>(
      kubeConfig,
      ns ? `/apis/batch/v1/namespaces/${ns}/jobs` : '/apis/batch/v1/jobs',
      () => (ns ? batch.listNamespacedJob({ namespace: ns, labelSelector: selector }) : batch.listJobForAllNamespaces({ labelSelector: selector })),
      { onUpsert: onJob, onDelete: onJob },
      log.child({ informer: 'jobs' }),
      selector,
    );
    const jobs = jobsInformer;
    executor = new KubernetesJobExecutor(kubeConfig, (namespace) => jobs.list(namespace), options.executor.job);
  } else {
    localExecutor = new LocalProcessExecutor(options.executor.command, options.executor.env, log.child({ executor: 'local' }), (owner) => enqueue(keyOf(owner.namespace, owner.name)));
    executor = localExecutor;
  }

  const reconciler = new StaticExportReconciler({
    executor,
    objects: options.objects,
    values: new KubernetesValuesPublisher(kubeConfig, options.helmReleaseApiVersion),
    exports: new KubernetesStaticExports(kubeConfig),
    events: new KubernetesEventRecorder(kubeConfig, 'docport-controller', log),
    log,
    settings: options.decide,
    now: options.now ?? (() => new Date()),
  });

  const workers = new Workers(queue, async (key) => {
    const [namespace = '', name = ''] = key.split('/');
    const resource = exportsInformer.get(namespace, name);
    if (!resource) return { kind: 'done' };
    return reconciler.reconcile(resource);
  }, metrics, log, options.workers);

  const informers = [exportsInformer, ...(jobsInformer ? [jobsInformer] : [])];
  const synced = (): boolean => informers.every((i) => i.hasSynced());
  await Promise.all(informers.map((i) => i.start()));

  let resync: NodeJS.Timeout | undefined;
  let workersStarted = false;
  const beginLeading = (): void => {
    leading = true;
    metrics.leader(true);
    const begin = (): void => {
      if (stopping || !leading) return;
      if (!synced()) {
        setTimeout(begin, 200).unref();
        return;
      }
      if (!workersStarted) {
        workersStarted = true;
        workers.start();
      }
      for (const o of exportsInformer.list()) enqueue(keyOf(o.metadata.namespace, o.metadata.name));
      resync = setInterval(() => {
        for (const o of exportsInformer.list()) enqueue(keyOf(o.metadata.namespace, o.metadata.name));
      }, options.resyncMs);
      resync.unref();
    };
    begin();
  };

  let elector: LeaderElector | undefined;
  if (options.leaderElection) {
    const election = options.leaderElection;
    elector = new LeaderElector(
      new KubernetesLeaseLock(kubeConfig, election.namespace, election.leaseName),
      options.identity,
      {
        onStartedLeading: beginLeading,
        onStoppedLeading: () => {
          leading = false;
          metrics.leader(false);
          clearInterval(resync);
          if (!stopping) options.onLostLeadership?.();
        },
      },
      log.child({ component: 'leader-election' }),
      election.timings ?? DEFAULT_TIMINGS,
    );
    elector.start();
  } else {
    beginLeading();
  }

  return {
    ready: synced,
    isLeader: () => leading,
    async stop() {
      stopping = true;
      clearInterval(resync);
      queue.shutDown();
      await Promise.all(informers.map((i) => i.stop()));
      if (workersStarted) await workers.drained();
      await localExecutor?.stopAll();
      await elector?.stop();
      log.info('controller stopped');
    },
  };
}
