import type { StaticExport } from '../../apis/staticexport/index.js';
import type { ObjectStore } from '../../ports/object-store.js';
import type { RenderExecutor } from '../../ports/render-executor.js';
import type { StaticExports } from '../../ports/static-exports.js';
import type { ValuesPublisher } from '../../ports/values-publisher.js';
import type { Action } from './decide.js';
import { WITHDRAWN_VALUES, valuesConfigMapData, valuesConfigMapMetadata } from './helm-values.js';
import { ANNOTATIONS, FINALIZER } from './names.js';

export interface ApplyDeps {
  executor: RenderExecutor;
  objects: ObjectStore;
  values: ValuesPublisher;
  exports: StaticExports;
}

/** An action that failed, with which one, so the status can say what went wrong. */
export class ActionError extends Error {
  constructor(readonly action: Action['type'], readonly failure: unknown) {
    super(`${action}: ${failure instanceof Error ? failure.message : String(failure)}`);
    this.name = 'ActionError';
  }
}

/**
 * Performs decided actions in order; each is idempotent (deterministic names,
 * create-or-keep, server-side apply, conflict-checked patches), so a retry after a
 * partial failure is safe. Returns the resource's resourceVersion after the actions.
 */
export async function apply(resource: StaticExport, actions: readonly Action[], deps: ApplyDeps): Promise<string | undefined> {
  const { namespace = '', name, uid = '' } = resource.metadata;
  const owner = { namespace, name, uid };
  let resourceVersion = resource.metadata.resourceVersion;
  for (const action of actions) {
    try {
      switch (action.type) {
        case 'addFinalizer':
          resourceVersion = await deps.exports.addFinalizer(resource, FINALIZER);
          break;
        case 'prepareNamespace':
          await deps.executor.prepareNamespace(namespace);
          break;
        case 'startRender':
          await deps.executor.start(owner, action.name, action.request);
          break;
        case 'removeRenders':
          await deps.executor.remove(owner, action.names);
          break;
        case 'publishValues': {
          const { url } = await deps.objects.presignGet(action.bundleKey, action.ttlSeconds, action.signAt);
          const values = { enabled: true, bundleUrl: url, version: action.version, sha256: action.sha256 };
          await deps.values.writeConfigMap(namespace, action.configMapName, { data: valuesConfigMapData(values), ...valuesConfigMapMetadata(action.publishedBy) });
          if (action.helmRelease) await deps.values.patchHelmRelease(action.helmRelease.namespace, action.helmRelease.name, { ...values });
          break;
        }
        case 'withdrawValues': {
          const current = await deps.values.read(namespace, action.configMapName);
          // Only the export that published the values takes them back.
          if (current?.annotations[ANNOTATIONS.publishedUid] === action.publishedUid) {
            await deps.values.writeConfigMap(namespace, action.configMapName, { data: valuesConfigMapData(WITHDRAWN_VALUES), ...valuesConfigMapMetadata(undefined) });
            if (action.helmRelease) {
              await deps.values.patchHelmRelease(action.helmRelease.namespace, action.helmRelease.name, { ...WITHDRAWN_VALUES }).catch((error: unknown) => {
                if (!(error instanceof Error && error.name === 'NotFoundError')) throw error;
              });
            }
          }
          break;
        }
        case 'deleteObjects':
          await deps.objects.deletePrefix(action.prefix);
          break;
        case 'removeFinalizer':
          await deps.exports.removeFinalizer(resource, FINALIZER);
          break;
      }
    } catch (error) {
      throw new ActionError(action.type, error);
    }
  }
  return resourceVersion;
}
