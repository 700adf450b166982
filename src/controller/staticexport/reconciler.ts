import { API_VERSION, KIND, type StaticExport, type StaticExportStatus } from '../../apis/staticexport/index.js';
import { ConflictError, InputError, NotFoundError } from '../../domain/errors.js';
import type { Logger } from '../../observability/logger.js';
import type { EventRecorder } from '../../ports/values-publisher.js';
import { ActionError, apply, type ApplyDeps } from './apply.js';
import { setCondition } from './conditions.js';
import { decide, type Outcome } from './decide.js';
import { gather } from './gather.js';
import type { DecideSettings } from './snapshot.js';

export interface ReconcilerDeps extends ApplyDeps {
  events: EventRecorder;
  log: Logger;
  settings: DecideSettings;
  now: () => Date;
}

/** What the work queue should do next with a key. */
export type ReconcileResult = Outcome | { kind: 'retry'; error: Error } | { kind: 'conflict' };

const REASONS: Record<string, string> = {
  addFinalizer: 'FinalizerFailed', prepareNamespace: 'RenderSetupFailed', startRender: 'StartRenderFailed', removeRenders: 'RemoveRenderFailed',
  publishValues: 'PublishFailed', withdrawValues: 'CleanupFailed', deleteObjects: 'CleanupFailed', removeFinalizer: 'CleanupFailed',
};

/** One reconcile of one StaticExport: gather -> decide (pure) -> apply, then status written once. */
export class StaticExportReconciler {
  constructor(private readonly deps: ReconcilerDeps) {}

  async reconcile(resource: StaticExport): Promise<ReconcileResult> {
    const log = this.deps.log.child({ staticexport: `${resource.metadata.namespace}/${resource.metadata.name}`, generation: resource.metadata.generation });
    const now = this.deps.now();
    try {
      const snapshot = await gather(resource, this.deps);
      const decision = decide(snapshot, now, this.deps.settings);
      let resourceVersion = resource.metadata.resourceVersion;
      try {
        resourceVersion = await apply(resource, decision.actions, this.deps);
      } catch (error) {
        const failed = error instanceof ActionError ? error : new ActionError('startRender', error);
        log.warn('reconcile action failed', { action: failed.action, error: failed.failure });
        await this.writeFailure(resource, failed, now).catch((e: unknown) => log.debug('could not record failure in status', { error: e }));
        return this.classify(failed.failure);
      }
      if (decision.actions.length > 0) log.info('reconciled', { actions: decision.actions.map((a) => a.type), phase: decision.status?.phase });
      if (decision.status && !sameStatus(resource.status, decision.status)) {
        await this.deps.exports.replaceStatus({ ...resource, metadata: { ...resource.metadata, resourceVersion } }, decision.status);
      }
      for (const event of decision.events) await this.deps.events.record(ref(resource), event);
      return decision.outcome;
    } catch (error) {
      return this.classify(error);
    }
  }

  /** Errors mapped to what the queue does: conflicts retry soon, invalid input stalls, anything else backs off. */
  private classify(error: unknown): ReconcileResult {
    if (error instanceof ConflictError) return { kind: 'conflict' };
    if (error instanceof NotFoundError) return { kind: 'retry', error };
    if (error instanceof InputError) return { kind: 'stalled', reason: error.message };
    return { kind: 'retry', error: error instanceof Error ? error : new Error(String(error)) };
  }

  private async writeFailure(resource: StaticExport, failure: ActionError, now: Date): Promise<void> {
    const generation = resource.metadata.generation ?? 1;
    const message = failure.message.slice(0, 4000);
    const status: StaticExportStatus = {
      ...(resource.status ?? {}),
      conditions: setCondition(resource.status?.conditions ?? [], { type: 'Ready', status: 'False', reason: REASONS[failure.action] ?? 'ReconcileFailed', message }, generation, now),
    };
    if (!sameStatus(resource.status, status)) await this.deps.exports.replaceStatus(resource, status);
  }
}

const ref = (r: StaticExport) => ({ namespace: r.metadata.namespace ?? '', name: r.metadata.name, uid: r.metadata.uid ?? '', kind: KIND, apiVersion: API_VERSION });

function sameStatus(a: StaticExportStatus | undefined, b: StaticExportStatus): boolean {
  return JSON.stringify(canonical(a ?? {})) === JSON.stringify(canonical(b));
}
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}
