import { RESULT_FILE, generationPrefix, renderResultSchema, type RenderResult } from '../../apis/render/contract.js';
import { defaultValuesConfigMapName, type StaticExport } from '../../apis/staticexport/index.js';
import type { ObjectStore } from '../../ports/object-store.js';
import type { RenderExecutor } from '../../ports/render-executor.js';
import type { ValuesPublisher } from '../../ports/values-publisher.js';
import type { Snapshot } from './snapshot.js';

export interface GatherDeps {
  executor: RenderExecutor;
  objects: ObjectStore;
  values: ValuesPublisher;
}

/** All reads of one reconcile, in one place: the result is plain data for decide(). */
export async function gather(resource: StaticExport, deps: GatherDeps): Promise<Snapshot> {
  const { namespace = '', name, uid = '', generation = 1 } = resource.metadata;
  const owner = { namespace, name, uid };
  const { current: render, others } = await deps.executor.observe(owner, generation);
  const snapshot: Snapshot = { resource, render, staleRenders: others };
  if (resource.metadata.deletionTimestamp) return snapshot;

  if (render.state === 'succeeded' || render.state === 'failed') {
    snapshot.result = await readResult(deps.objects, `${generationPrefix(namespace, name, generation)}${RESULT_FILE}`);
  }
  const archiveKey = snapshot.result && !('invalid' in snapshot.result) && snapshot.result.outcome === 'succeeded'
    ? snapshot.result.archiveKey
    : resource.status?.bundle?.key;
  if (archiveKey) {
    const head = await deps.objects.head(archiveKey);
    if (head) snapshot.archive = { key: archiveKey, sizeBytes: head.sizeBytes };
  }
  if (archiveKey && typeof resource.spec?.domain === 'string') {
    const configMapName = resource.spec.publish?.configMapName ?? defaultValuesConfigMapName(resource.spec.domain);
    const values = await deps.values.read(namespace, configMapName);
    if (values) snapshot.values = values;
  }
  return snapshot;
}

async function readResult(objects: ObjectStore, key: string): Promise<RenderResult | { invalid: string } | undefined> {
  const body = await objects.read(key);
  if (!body) return undefined;
  try {
    const parsed = renderResultSchema.safeParse(JSON.parse(body.toString('utf8')));
    return parsed.success ? parsed.data : { invalid: `result.json does not match the contract: ${parsed.error.issues[0]?.message ?? ''}` };
  } catch {
    return { invalid: 'result.json is not JSON' };
  }
}
