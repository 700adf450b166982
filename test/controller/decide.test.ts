// decide() is pure: each case is a snapshot and a fixed time, and a decision.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RenderResult } from '../../src/apis/render/contract.js';
import type { StaticExport, StaticExportStatus } from '../../src/apis/staticexport/index.js';
import { decide, type Action } from '../../src/controller/staticexport/decide.js';
import { ANNOTATIONS, FINALIZER, renderName } from '../../src/controller/staticexport/names.js';
import type { Snapshot } from '../../src/controller/staticexport/snapshot.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const SETTINGS = { presignTtlSeconds: 3600, refreshFraction: 0.2, waitRetryMs: 30_000 };
const UID = '0b8a6a52-1111-4c1e-9a55-000000000001';
const SHA = 'a'.repeat(64);

function resource(overrides: { generation?: number; status?: StaticExportStatus; spec?: Partial<StaticExport['spec']>; finalizers?: string[]; deleting?: boolean } = {}): StaticExport {
  return {
    apiVersion: 'docport.dev/v1alpha1', kind: 'StaticExport',
    metadata: {
      name: 'docs', namespace: 'team-a', uid: UID, generation: overrides.generation ?? 1, resourceVersion: '10',
      finalizers: overrides.finalizers ?? [FINALIZER],
      ...(overrides.deleting ? { deletionTimestamp: '2026-11-22T11:59:00Z' } : {}),
    },
    spec: { domain: 'docs.example.com', origin: 'https://docs.example.com/', format: 'zip', version: 'v2', ...overrides.spec },
    ...(overrides.status ? { status: overrides.status } : {}),
  };
}
const snapshot = (r: StaticExport, rest: Partial<Snapshot> = {}): Snapshot => ({ resource: r, render: { state: 'absent' }, staleRenders: [], ...rest });
const types = (actions: Action[]): string[] => actions.map((a) => a.type);
const condition = (status: StaticExportStatus | undefined, type: string) => status?.conditions?.find((c) => c.type === type);
const succeeded = (generation = 1): RenderResult => ({
  outcome: 'succeeded', generation, archiveKey: `exports/team-a/docs/g${generation}/bundle.zip`, format: 'zip', sizeBytes: 1234, sha256: SHA,
  pageCount: 42, manifestKey: `exports/team-a/docs/g${generation}/manifest.json`, completedAt: '2026-11-22T11:58:00.000Z',
});
const completedStatus = (expiresAt: string): StaticExportStatus => ({
  phase: 'Completed', progress: 100, pageCount: 42, observedGeneration: 1, renderJobName: renderName('docs', UID, 1),
  bundle: { key: 'exports/team-a/docs/g1/bundle.zip', format: 'zip', sizeBytes: 1234, sha256: SHA, generation: 1, completedAt: '2026-11-22T11:58:00Z', expiresAt },
});
const publishedValues = (expiresAt: string, uid = UID, completedAt = '2026-11-22T11:58:00Z') => ({
  name: 'docport-static-export-docs-example-com',
  data: { enabled: 'true', sha256: SHA, bundleUrl: 'https://s3/...', version: 'v2' },
  annotations: { [ANNOTATIONS.publishedUid]: uid, [ANNOTATIONS.publishedGeneration]: '1', [ANNOTATIONS.expiresAt]: expiresAt, [ANNOTATIONS.completedAt]: completedAt, [ANNOTATIONS.publishedBy]: 'team-a/other' },
});

describe('decide: a new export', () => {
  it('adds the finalizer, prepares the namespace and starts a render for generation 1, Queued', () => {
    const d = decide(snapshot(resource({ finalizers: [] })), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), ['addFinalizer', 'prepareNamespace', 'startRender']);
    const start = d.actions[2] as Extract<Action, { type: 'startRender' }>;
    assert.equal(start.name, renderName('docs', UID, 1));
    assert.deepEqual(start.request, {
      namespace: 'team-a', name: 'docs', generation: 1, domain: 'docs.example.com', origin: 'https://docs.example.com/', format: 'zip', version: 'v2',
      outputPrefix: 'exports/team-a/docs/g1/',
    });
    assert.equal(d.status?.phase, 'Queued');
    assert.equal(d.status?.observedGeneration, 1);
    assert.equal(condition(d.status, 'Reconciling')?.status, 'True');
    assert.equal(condition(d.status, 'Ready')?.status, 'False');
    assert.equal(condition(d.status, 'Ready')?.lastTransitionTime, '2026-11-22T12:00:00Z');
    assert.deepEqual(d.events.map((e) => e.reason), ['JobCreated']);
    assert.deepEqual(d.outcome, { kind: 'done' });
  });

  it('stalls an invalid spec with a clear message and starts nothing', () => {
    const d = decide(snapshot(resource({ spec: { origin: 'https://user:pw@docs.example.com/', publish: { helmRelease: { name: 'docs', namespace: 'other' } } } })), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), []);
    assert.equal(d.status?.phase, 'Failed');
    assert.deepEqual(d.outcome, { kind: 'stalled', reason: 'InvalidSpec' });
    assert.equal(condition(d.status, 'Stalled')?.reason, 'InvalidSpec');
    assert.match(d.status?.failureMessage ?? '', /spec.origin: must not contain credentials/);
    assert.match(d.status?.failureMessage ?? '', /spec.publish.helmRelease.namespace/);
    assert.ok(!JSON.stringify(d).includes('user:pw'));
  });

  it('refuses paths outside the origin path', () => {
    const d = decide(snapshot(resource({ spec: { origin: 'https://docs.example.com/guide/', paths: ['/api/'] } })), NOW, SETTINGS);
    assert.match(d.status?.failureMessage ?? '', /\/api\/ is outside the origin path \/guide\//);
  });
});

describe('decide: while rendering', () => {
  const queued: StaticExportStatus = { phase: 'Queued', progress: 0, pageCount: 0, observedGeneration: 1, renderJobName: renderName('docs', UID, 1) };
  it('is Running once the render runs, keeping the progress the renderer reported', () => {
    const r = resource({ status: { ...queued, progress: 37, pageCount: 12 } });
    const d = decide(snapshot(r, { render: { state: 'running', name: 'x', startTime: new Date('2026-11-22T11:59:30Z') } }), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), []);
    assert.equal(d.status?.phase, 'Running');
    assert.equal(d.status?.progress, 37);
    assert.equal(d.status?.startTime, '2026-11-22T11:59:30Z');
    assert.deepEqual(d.events.map((e) => e.reason), ['RenderStarted']);
  });

  it('is idempotent: the same snapshot a second later decides the same status', () => {
    const r = resource({ status: queued });
    const first = decide(snapshot(r, { render: { state: 'running', name: 'x' } }), NOW, SETTINGS);
    const again = decide(snapshot(resource({ status: first.status! }), { render: { state: 'running', name: 'x' } }), new Date(NOW.getTime() + 1000), SETTINGS);
    assert.deepEqual(again.status, first.status);
    assert.deepEqual(again.events, []);
  });

  it('restarts a render that vanished before finishing (controller restart with the local executor)', () => {
    const d = decide(snapshot(resource({ status: { ...queued, phase: 'Running' } })), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), ['prepareNamespace', 'startRender']);
  });

  it('starts a new render for a new generation, removing the old one but keeping the last good bundle published', () => {
    const r = resource({ generation: 2, status: completedStatus('2026-11-22T12:50:00Z') });
    const d = decide(snapshot(r, { staleRenders: ['old-job'], archive: { key: 'exports/team-a/docs/g1/bundle.zip', sizeBytes: 1234 }, values: publishedValues('2026-11-22T12:50:00Z') }), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), ['removeRenders', 'prepareNamespace', 'startRender']);
    assert.equal((d.actions[2] as Extract<Action, { type: 'startRender' }>).request.outputPrefix, 'exports/team-a/docs/g2/');
    assert.equal(d.status?.phase, 'Queued');
    assert.equal(d.status?.observedGeneration, 2);
    assert.equal(d.status?.bundle?.generation, 1);
    assert.equal(condition(d.status, 'ValuesPublished')?.status, 'True');
  });
});

describe('decide: a finished render', () => {
  const running: StaticExportStatus = { phase: 'Running', progress: 90, pageCount: 40, observedGeneration: 1, renderJobName: renderName('docs', UID, 1) };
  const done = { state: 'succeeded' as const, name: renderName('docs', UID, 1), completionTime: new Date('2026-11-22T11:58:00Z') };

  it('completes with bundle facts and publishes the values with a fresh link', () => {
    const d = decide(snapshot(resource({ status: running }), { render: done, result: succeeded(), archive: { key: 'exports/team-a/docs/g1/bundle.zip', sizeBytes: 1234 } }), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), ['publishValues']);
    const publish = d.actions[0] as Extract<Action, { type: 'publishValues' }>;
    assert.equal(publish.configMapName, 'docport-static-export-docs-example-com');
    assert.equal(publish.signAt.toISOString(), NOW.toISOString());
    assert.equal(publish.publishedBy.expiresAt, '2026-11-22T13:00:00Z');
    assert.equal(d.status?.phase, 'Completed');
    assert.equal(d.status?.progress, 100);
    assert.equal(d.status?.pageCount, 42);
    assert.deepEqual(d.status?.bundle, { key: 'exports/team-a/docs/g1/bundle.zip', format: 'zip', sizeBytes: 1234, sha256: SHA, generation: 1, completedAt: '2026-11-22T11:58:00Z', expiresAt: '2026-11-22T13:00:00Z' });
    assert.equal(condition(d.status, 'Ready')?.status, 'True');
    assert.equal(condition(d.status, 'Reconciling'), undefined);
    assert.deepEqual(d.events.map((e) => e.reason), ['BundleReady', 'ValuesPublished']);
    // Re-presign when 20% of the hour is left: at 12:48.
    assert.deepEqual(d.outcome, { kind: 'requeueAfter', ms: 48 * 60_000 });
  });

  it('fails when the render wrote a failed result, and stalls until the spec changes', () => {
    const failed: RenderResult = { outcome: 'failed', generation: 1, error: 'origin answered 503 for /', pageCount: 0, completedAt: '2026-11-22T11:58:00.000Z' };
    const d = decide(snapshot(resource({ status: running }), { render: { ...done, state: 'failed', message: 'BackoffLimitExceeded' }, result: failed }), NOW, SETTINGS);
    assert.equal(d.status?.phase, 'Failed');
    assert.equal(d.status?.failureMessage, 'render failed: origin answered 503 for /');
    assert.equal(condition(d.status, 'Stalled')?.status, 'True');
    assert.deepEqual(d.events.map((e) => e.reason), ['RenderFailed']);
    assert.deepEqual(d.outcome, { kind: 'done' });
  });

  it('fails a Job that failed without a result, with the Job condition as the reason', () => {
    const d = decide(snapshot(resource({ status: running }), { render: { ...done, state: 'failed', message: 'DeadlineExceeded: Job was active longer than specified deadline' } }), NOW, SETTINGS);
    assert.match(d.status?.failureMessage ?? '', /failed: DeadlineExceeded: Job was active longer than specified deadline \(no result.json\)/);
  });

  it('fails a success whose archive is missing or of another size', () => {
    const d = decide(snapshot(resource({ status: running }), { render: done, result: succeeded(), archive: { key: 'exports/team-a/docs/g1/bundle.zip', sizeBytes: 99 } }), NOW, SETTINGS);
    assert.equal(d.status?.phase, 'Failed');
    assert.match(d.status?.failureMessage ?? '', /missing or its size differs/);
  });

  it('rejects a result written for another generation', () => {
    const d = decide(snapshot(resource({ generation: 2, status: { ...running, observedGeneration: 2 } }), { render: done, result: succeeded(1), archive: { key: 'exports/team-a/docs/g1/bundle.zip', sizeBytes: 1234 } }), NOW, SETTINGS);
    assert.match(d.status?.failureMessage ?? '', /result for generation 1, expected 2/);
  });
});

describe('decide: a completed export', () => {
  const archive = { key: 'exports/team-a/docs/g1/bundle.zip', sizeBytes: 1234 };
  it('does nothing while the published link is fresh, and requeues before it needs a refresh', () => {
    const r = resource({ status: completedStatus('2026-11-22T12:50:00Z') });
    const d = decide(snapshot(r, { archive, values: publishedValues('2026-11-22T12:50:00Z') }), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), []);
    assert.equal(d.status?.bundle?.expiresAt, '2026-11-22T12:50:00Z');
    assert.deepEqual(d.outcome, { kind: 'requeueAfter', ms: 38 * 60_000 });
  });

  it('re-presigns and republishes near expiry without re-rendering', () => {
    const r = resource({ status: completedStatus('2026-11-22T12:10:00Z') });
    const d = decide(snapshot(r, { archive, values: publishedValues('2026-11-22T12:10:00Z') }), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), ['publishValues']);
    assert.equal(d.status?.bundle?.expiresAt, '2026-11-22T13:00:00Z');
    assert.equal(d.status?.phase, 'Completed');
  });

  it('republishes when someone changed or emptied the values', () => {
    const values = publishedValues('2026-11-22T12:50:00Z');
    values.data.enabled = 'false';
    const d = decide(snapshot(resource({ status: completedStatus('2026-11-22T12:50:00Z') }), { archive, values }), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), ['publishValues']);
  });

  it('leaves values of an export that completed later alone', () => {
    const values = publishedValues('2026-11-22T12:50:00Z', 'other-uid', '2026-11-22T11:59:59Z');
    const d = decide(snapshot(resource({ status: completedStatus('2026-11-22T12:50:00Z') }), { archive, values }), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), []);
    assert.equal(condition(d.status, 'ValuesPublished')?.reason, 'Superseded');
    assert.equal(condition(d.status, 'Ready')?.status, 'True');
  });

  it('takes over values of an export that completed earlier', () => {
    const values = publishedValues('2026-11-22T12:50:00Z', 'other-uid', '2026-11-21T00:00:00Z');
    const d = decide(snapshot(resource({ status: completedStatus('2026-11-22T12:50:00Z') }), { archive, values }), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), ['publishValues']);
  });

  it('does not publish a bundle whose archive disappeared, and checks again later', () => {
    const d = decide(snapshot(resource({ status: completedStatus('2026-11-22T12:50:00Z') })), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), []);
    assert.equal(condition(d.status, 'BundleReady')?.reason, 'ArchiveMissing');
    assert.equal(condition(d.status, 'Ready')?.status, 'False');
    assert.deepEqual(d.outcome, { kind: 'requeueAfter', ms: 30_000 });
  });
});

describe('decide: deletion', () => {
  it('removes renders, withdraws values, deletes objects, then the finalizer; writes no status', () => {
    const r = resource({ deleting: true, spec: { publish: { configMapName: 'docs-values', helmRelease: { name: 'docs' } } } });
    const d = decide(snapshot(r, { render: { state: 'running', name: 'j1' }, staleRenders: ['j0'] }), NOW, SETTINGS);
    assert.deepEqual(types(d.actions), ['removeRenders', 'withdrawValues', 'deleteObjects', 'removeFinalizer']);
    assert.deepEqual(d.actions[0], { type: 'removeRenders', names: ['j0', 'j1'] });
    assert.deepEqual(d.actions[1], { type: 'withdrawValues', configMapName: 'docs-values', helmRelease: { name: 'docs', namespace: 'team-a' }, publishedUid: UID });
    assert.deepEqual(d.actions[2], { type: 'deleteObjects', prefix: 'exports/team-a/docs/' });
    assert.equal(d.status, undefined);
  });

  it('does nothing once its finalizer is gone', () => {
    const d = decide(snapshot(resource({ deleting: true, finalizers: ['someone.else/keep'] })), NOW, SETTINGS);
    assert.deepEqual(d.actions, []);
  });
});
