import { exportPrefix, generationPrefix, type RenderRequest } from '../../apis/render/contract.js';
import { defaultValuesConfigMapName, type Condition, type ConditionType, type StaticExportSpec, type StaticExportStatus } from '../../apis/staticexport/index.js';
import { removeCondition, rfc3339, setCondition, type ConditionChange } from './conditions.js';
import type { PublishedBy } from './helm-values.js';
import { ANNOTATIONS, FINALIZER, renderName } from './names.js';
import type { DecideSettings, Snapshot } from './snapshot.js';
import { specProblems } from './spec-problems.js';

/*
 * The StaticExport state machine, per generation:
 *
 *   (new generation) --startRender--> Queued --Job/process started--> Running
 *   Running --result.json succeeded + archive present--> Completed --publish values--> Ready
 *   Running --result failed / Job failed / no valid result--> Failed (Stalled: needs a spec change)
 *   invalid spec --> Failed (Stalled, InvalidSpec), no render
 *   Completed --link nearing expiry--> re-presign + republish values (no re-render)
 *   deletionTimestamp --> remove renders, withdraw values, delete objects, drop finalizer
 *
 * decide() is pure: same snapshot and time, same decision. Status is written by the
 * caller once, after the actions succeeded.
 */

export type Action =
  | { type: 'addFinalizer' }
  | { type: 'prepareNamespace' }
  | { type: 'startRender'; name: string; request: RenderRequest }
  | { type: 'removeRenders'; names: string[] }
  | {
      type: 'publishValues';
      configMapName: string;
      helmRelease?: { name: string; namespace: string };
      bundleKey: string;
      version: string;
      sha256: string;
      signAt: Date;
      ttlSeconds: number;
      publishedBy: PublishedBy;
    }
  | { type: 'withdrawValues'; configMapName: string; helmRelease?: { name: string; namespace: string }; publishedUid: string }
  | { type: 'deleteObjects'; prefix: string }
  | { type: 'removeFinalizer' };

export type Outcome = { kind: 'done' } | { kind: 'requeueAfter'; ms: number } | { kind: 'stalled'; reason: string };

export interface EventRecord {
  type: 'Normal' | 'Warning';
  reason: 'JobCreated' | 'RenderStarted' | 'RenderFailed' | 'BundleReady' | 'ValuesPublished' | 'InvalidSpec' | 'ArchiveMissing';
  message: string;
}

export interface Decision {
  actions: Action[];
  /** The status to write; undefined when nothing is to be written (deletion). */
  status?: StaticExportStatus;
  outcome: Outcome;
  /** Emitted after the actions succeeded. */
  events: EventRecord[];
}

const terminal = (phase: string | undefined): boolean => phase === 'Completed' || phase === 'Failed';

export function decide(s: Snapshot, now: Date, settings: DecideSettings): Decision {
  const resource = s.resource;
  const meta = resource.metadata;
  const hasFinalizer = meta.finalizers?.includes(FINALIZER) ?? false;
  if (meta.deletionTimestamp) return decideDeletion(s, hasFinalizer);

  const generation = meta.generation ?? 1;
  const old = resource.status ?? {};
  const newGeneration = old.observedGeneration !== generation;
  const actions: Action[] = hasFinalizer ? [] : [{ type: 'addFinalizer' }];
  const events: EventRecord[] = [];
  if (s.staleRenders.length > 0) actions.push({ type: 'removeRenders', names: [...s.staleRenders] });

  let conditions: Condition[] = [...(old.conditions ?? [])];
  const set = (change: ConditionChange): void => {
    conditions = setCondition(conditions, change, generation, now);
  };
  const unset = (type: ConditionType): void => {
    conditions = removeCondition(conditions, type);
  };

  const { spec, problems } = specProblems(resource);
  if (!spec || problems.length > 0) {
    const message = problems.join('; ');
    set({ type: 'Ready', status: 'False', reason: 'InvalidSpec', message });
    set({ type: 'Stalled', status: 'True', reason: 'InvalidSpec', message });
    unset('Reconciling');
    if (newGeneration || old.phase !== 'Failed') events.push({ type: 'Warning', reason: 'InvalidSpec', message });
    const status: StaticExportStatus = { ...old, phase: 'Failed', failureMessage: message, observedGeneration: generation, conditions };
    return { actions, status, outcome: { kind: 'stalled', reason: 'InvalidSpec' }, events };
  }

  const status: StaticExportStatus = newGeneration
    ? { ...(old.bundle ? { bundle: old.bundle } : {}), phase: 'Queued', progress: 0, pageCount: 0, observedGeneration: generation }
    : { ...old, observedGeneration: generation };
  const name = renderName(meta.name, meta.uid ?? '', generation);
  let outcome: Outcome = { kind: 'done' };

  const render = s.render;
  if (render.state === 'absent') {
    if (newGeneration || !terminal(old.phase)) {
      actions.push({ type: 'prepareNamespace' }, { type: 'startRender', name, request: renderRequest(s, spec, generation) });
      Object.assign(status, { phase: 'Queued', renderJobName: name, startTime: rfc3339(now) });
      delete status.failureMessage;
      delete status.completionTime;
      set({ type: 'Rendered', status: 'Unknown', reason: 'Queued', message: `render ${name} requested` });
      events.push({ type: 'Normal', reason: 'JobCreated', message: `started render ${name} for generation ${generation}` });
    }
  } else if (!isFinished(render)) {
    const running = render.state === 'running';
    status.phase = running ? 'Running' : 'Queued';
    status.renderJobName = render.name;
    if (render.startTime) status.startTime = rfc3339(render.startTime);
    set({ type: 'Rendered', status: 'Unknown', reason: running ? 'Rendering' : 'Pending', message: running ? `render ${render.name} is running` : `render ${render.name} is waiting to start` });
    if (running && old.phase !== 'Running') events.push({ type: 'Normal', reason: 'RenderStarted', message: `render ${render.name} started` });
  } else {
    status.renderJobName = render.name;
    const finished = finishedRender(s, render, generation);
    if (finished.ok) {
      Object.assign(status, { phase: 'Completed', progress: 100, pageCount: finished.pageCount, completionTime: finished.completedAt, bundle: finished.bundle });
      delete status.failureMessage;
      set({ type: 'Rendered', status: 'True', reason: 'RenderSucceeded', message: `rendered ${finished.pageCount} pages` });
      if (old.phase !== 'Completed' || newGeneration) events.push({ type: 'Normal', reason: 'BundleReady', message: `bundle ${finished.bundle.key} is ready (${finished.bundle.sizeBytes} bytes, ${finished.pageCount} pages)` });
    } else {
      Object.assign(status, { phase: 'Failed', failureMessage: finished.message, completionTime: rfc3339(render.completionTime ?? now) });
      if (finished.pageCount !== undefined) status.pageCount = finished.pageCount;
      set({ type: 'Rendered', status: 'False', reason: 'RenderFailed', message: finished.message });
      if (old.phase !== 'Failed' || newGeneration) events.push({ type: 'Warning', reason: 'RenderFailed', message: finished.message });
    }
  }

  // Publication follows the last good bundle, whatever the current generation is doing.
  let valuesReady = false;
  if (status.bundle) {
    const bundle = status.bundle;
    if (s.archive?.key !== bundle.key || s.archive.sizeBytes !== bundle.sizeBytes) {
      set({ type: 'BundleReady', status: 'False', reason: 'ArchiveMissing', message: `archive ${bundle.key} is missing from the object store` });
      if (old.conditions?.find((c) => c.type === 'BundleReady')?.reason !== 'ArchiveMissing') {
        events.push({ type: 'Warning', reason: 'ArchiveMissing', message: `archive ${bundle.key} is missing from the object store` });
      }
      outcome = { kind: 'requeueAfter', ms: settings.waitRetryMs };
    } else {
      set({ type: 'BundleReady', status: 'True', reason: 'ArchiveStored', message: `archive ${bundle.key} (${bundle.sizeBytes} bytes, sha256 ${bundle.sha256})` });
      const published = decidePublication(s, spec, bundle, now, settings);
      actions.push(...published.actions);
      events.push(...published.events);
      if (published.expiresAt) bundle.expiresAt = published.expiresAt;
      set(published.condition);
      valuesReady = published.condition.status === 'True' || published.condition.reason === 'Superseded';
      outcome = published.requeueAfterMs === undefined ? outcome : { kind: 'requeueAfter', ms: published.requeueAfterMs };
    }
  }

  if (status.phase === 'Completed') {
    unset('Reconciling');
    unset('Stalled');
    if (valuesReady) set({ type: 'Ready', status: 'True', reason: 'Succeeded', message: `bundle of generation ${generation} is ready and its values are published` });
    else set({ type: 'Ready', status: 'False', reason: conditions.find((c) => c.type === 'BundleReady')?.status === 'False' ? 'ArchiveMissing' : 'PublishPending', message: 'the bundle is not published yet' });
  } else if (status.phase === 'Failed') {
    unset('Reconciling');
    set({ type: 'Ready', status: 'False', reason: 'RenderFailed', message: status.failureMessage ?? 'render failed' });
    set({ type: 'Stalled', status: 'True', reason: 'RenderFailed', message: 'the render failed; change the spec to render again' });
  } else {
    unset('Stalled');
    const message = `render ${status.renderJobName ?? name} ${status.phase === 'Running' ? 'is running' : 'is queued'} for generation ${generation}`;
    set({ type: 'Reconciling', status: 'True', reason: 'Progressing', message });
    set({ type: 'Ready', status: 'False', reason: 'Progressing', message });
  }
  status.conditions = conditions;
  return { actions, status, outcome, events };
}

function renderRequest(s: Snapshot, spec: StaticExportSpec, generation: number): RenderRequest {
  const { namespace = '', name } = s.resource.metadata;
  return {
    namespace, name, generation,
    domain: spec.domain, origin: spec.origin, format: spec.format,
    ...(spec.version ? { version: spec.version } : {}),
    ...(spec.paths ? { paths: spec.paths } : {}),
    outputPrefix: generationPrefix(namespace, name, generation),
  };
}

type Finished =
  | { ok: true; pageCount: number; completedAt: string; bundle: NonNullable<StaticExportStatus['bundle']> }
  | { ok: false; message: string; pageCount?: number };

type FinishedObservation = Extract<Snapshot['render'], { state: 'succeeded' | 'failed' }>;
const isFinished = (r: Snapshot['render']): r is FinishedObservation => r.state === 'succeeded' || r.state === 'failed';

function finishedRender(s: Snapshot, render: FinishedObservation, generation: number): Finished {
  const result = s.result;
  if (!result || 'invalid' in result) {
    const why = result ? result.invalid : 'no result.json';
    const base = render.state === 'failed' ? `render ${render.name} failed${render.message ? `: ${render.message}` : ''}` : `render ${render.name} finished without a valid result`;
    return { ok: false, message: `${base} (${why})` };
  }
  if (result.generation !== generation) return { ok: false, message: `render ${render.name} wrote a result for generation ${result.generation}, expected ${generation}` };
  if (result.outcome === 'failed') return { ok: false, message: `render failed: ${result.error}`, pageCount: result.pageCount };
  if (render.state === 'failed') return { ok: false, message: `render ${render.name} failed${render.message ? `: ${render.message}` : ''} after writing its result` };
  if (s.archive?.key !== result.archiveKey || s.archive.sizeBytes !== result.sizeBytes) {
    return { ok: false, message: `archive ${result.archiveKey} is missing or its size differs from the render result`, pageCount: result.pageCount };
  }
  return {
    ok: true,
    pageCount: result.pageCount,
    completedAt: rfc3339(new Date(result.completedAt)),
    bundle: { key: result.archiveKey, format: result.format, sizeBytes: result.sizeBytes, sha256: result.sha256, generation, completedAt: rfc3339(new Date(result.completedAt)) },
  };
}

function decidePublication(
  s: Snapshot,
  spec: StaticExportSpec,
  bundle: NonNullable<StaticExportStatus['bundle']>,
  now: Date,
  settings: DecideSettings,
): { actions: Action[]; events: EventRecord[]; condition: ConditionChange; expiresAt?: string; requeueAfterMs?: number } {
  const { namespace = '', name, uid = '' } = s.resource.metadata;
  const configMapName = spec.publish?.configMapName ?? defaultValuesConfigMapName(spec.domain);
  const helmRelease = spec.publish?.helmRelease ? { name: spec.publish.helmRelease.name, namespace } : undefined;
  const current = s.values?.annotations ?? {};
  const currentUid = current[ANNOTATIONS.publishedUid];
  if (currentUid && currentUid !== uid && (current[ANNOTATIONS.completedAt] ?? '') > bundle.completedAt) {
    return {
      actions: [], events: [],
      condition: { type: 'ValuesPublished', status: 'False', reason: 'Superseded', message: `ConfigMap ${configMapName} carries ${current[ANNOTATIONS.publishedBy] ?? 'another export'}, which completed later` },
    };
  }
  const refreshMs = settings.presignTtlSeconds * 1000 * settings.refreshFraction;
  const currentExpiry = Date.parse(current[ANNOTATIONS.expiresAt] ?? '');
  const fresh =
    currentUid === uid &&
    current[ANNOTATIONS.publishedGeneration] === String(bundle.generation) &&
    s.values?.data.enabled === 'true' &&
    s.values.data.sha256 === bundle.sha256 &&
    Number.isFinite(currentExpiry) &&
    now.getTime() < currentExpiry - refreshMs;
  const target = `ConfigMap ${configMapName}${helmRelease ? ` and HelmRelease ${helmRelease.name}` : ''}`;
  if (fresh) {
    return {
      actions: [], events: [],
      expiresAt: rfc3339(new Date(currentExpiry)),
      condition: { type: 'ValuesPublished', status: 'True', reason: 'Published', message: `values published to ${target}` },
      requeueAfterMs: Math.max(1000, currentExpiry - refreshMs - now.getTime()),
    };
  }
  const signAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const expiresAtMs = signAt.getTime() + settings.presignTtlSeconds * 1000;
  const expiresAt = rfc3339(new Date(expiresAtMs));
  return {
    actions: [{
      type: 'publishValues', configMapName, ...(helmRelease ? { helmRelease } : {}),
      bundleKey: bundle.key, version: spec.version ?? '', sha256: bundle.sha256, signAt, ttlSeconds: settings.presignTtlSeconds,
      publishedBy: { namespace, name, uid, generation: bundle.generation, completedAt: bundle.completedAt, expiresAt },
    }],
    events: [{ type: 'Normal', reason: 'ValuesPublished', message: `published bundle of generation ${bundle.generation} to ${target} (link valid until ${expiresAt})` }],
    expiresAt,
    condition: { type: 'ValuesPublished', status: 'True', reason: 'Published', message: `values published to ${target}` },
    requeueAfterMs: Math.max(1000, expiresAtMs - refreshMs - now.getTime()),
  };
}

function decideDeletion(s: Snapshot, hasFinalizer: boolean): Decision {
  if (!hasFinalizer) return { actions: [], outcome: { kind: 'done' }, events: [] };
  const { namespace = '', name, uid = '' } = s.resource.metadata;
  const spec = s.resource.spec;
  const renders = [...s.staleRenders, ...(s.render.state === 'absent' ? [] : [s.render.name])];
  const configMapName = spec.publish?.configMapName ?? defaultValuesConfigMapName(spec.domain);
  const helmRelease = spec.publish?.helmRelease ? { name: spec.publish.helmRelease.name, namespace } : undefined;
  return {
    actions: [
      ...(renders.length > 0 ? [{ type: 'removeRenders' as const, names: renders }] : []),
      { type: 'withdrawValues', configMapName, ...(helmRelease ? { helmRelease } : {}), publishedUid: uid },
      { type: 'deleteObjects', prefix: exportPrefix(namespace, name) },
      { type: 'removeFinalizer' },
    ],
    outcome: { kind: 'done' },
    events: [],
  };
}
