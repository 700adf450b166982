import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import pg from 'pg';
import { createPool } from '../../src/adapters/postgres/pool.js';
import { PgAssistantEvents, splitByHour } from '../../src/adapters/postgres/pg-assistant-events.js';
import { CALLER_TYPES, type AssistantEvent } from '../../src/analytics/assistant-events.js';
import { cleanup } from '../support/environment.js';
import { testDatabase } from '../support/postgres.js';

const PROJECT = '6f1c1f4e-8d1c-4c36-9a43-2f1b0b5a7e10';
const OTHER = '0b7e2a57-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const KOLKATA = '3d6f0a1e-5b2c-4e8f-9a7d-1c2b3a4d5e6f';

describe('PgAssistantEvents: hourly rollups plus the log at the edges give exact counts', () => {
  let pool: pg.Pool;
  let events: PgAssistantEvents;
  const start = Date.parse('2024-03-01T00:00:00Z');
  const span = 3 * 24 * 3600 * 1000;
  // A small deterministic generator, so a failure reproduces.
  let seed = 42;
  const random = (): number => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  let url: string;
  before(async () => {
    url = await testDatabase();
    pool = createPool(url, 6);
    cleanup(() => pool.end());
    events = await PgAssistantEvents.create({ pool });
    await PgAssistantEvents.create({ pool }); // migrations are idempotent
    const generated: AssistantEvent[] = Array.from({ length: 6000 }, () => ({
      projectId: random() < 0.8 ? PROJECT : OTHER,
      occurredAt: new Date(start + Math.floor(random() * span)),
      caller: CALLER_TYPES[Math.floor(random() * 3)]!,
    }));
    // Concurrent batches touch the same rollup rows: counts must still add up.
    await Promise.all(Array.from({ length: 6 }, (_, i) => events.record(generated.slice(i * 1000, (i + 1) * 1000))));
  });

  it('splits a range into partial hours and whole hours', () => {
    const d = (s: string): Date => new Date(s);
    assert.deepEqual(splitByHour({ from: d('2024-03-01T10:30:00Z'), to: d('2024-03-01T13:15:00Z') }), {
      head: { from: d('2024-03-01T10:30:00Z'), to: d('2024-03-01T11:00:00Z') },
      hours: { from: d('2024-03-01T11:00:00Z'), to: d('2024-03-01T13:00:00Z') },
      tail: { from: d('2024-03-01T13:00:00Z'), to: d('2024-03-01T13:15:00Z') },
    });
    const inside = splitByHour({ from: d('2024-03-01T10:10:00Z'), to: d('2024-03-01T10:50:00Z') });
    assert.deepEqual(inside.head, { from: d('2024-03-01T10:10:00Z'), to: d('2024-03-01T10:50:00Z') });
    assert.equal(inside.hours.from.getTime(), inside.hours.to.getTime());
  });

  it('matches a plain count over the log for random ranges, aligned or not', async () => {
    for (let i = 0; i < 40; i++) {
      const a = start - 3600_000 + Math.floor(random() * (span + 7200_000));
      const b = start - 3600_000 + Math.floor(random() * (span + 7200_000));
      const aligned = i % 4 === 0;
      const round = (t: number): number => (aligned ? Math.floor(t / 3600_000) * 3600_000 : t);
      const from = new Date(round(Math.min(a, b)));
      const to = new Date(round(Math.max(a, b)) + 1);
      const { rows } = await pool.query<{ caller: string; n: number }>(
        'SELECT caller, count(*)::int AS n FROM assistant_events WHERE project_id = $1 AND occurred_at >= $2 AND occurred_at < $3 GROUP BY caller',
        [PROJECT, from, to]);
      const expected = { web: 0, api: 0, other: 0, total: 0 };
      for (const r of rows) {
        expected[r.caller as 'web'] = r.n;
        expected.total += r.n;
      }
      assert.deepEqual(await events.callerStats(PROJECT, { from, to }), expected, `${from.toISOString()} .. ${to.toISOString()}`);
    }
  });

  it('keeps hour boundaries in UTC when written from a session in a half-hour time zone', async () => {
    // Writes go through sessions in Asia/Kolkata (UTC+05:30): a rollup keyed on local hours would start at :30 UTC.
    const kolkata = new pg.Pool({ connectionString: url, max: 2, options: '-c timezone=Asia/Kolkata' });
    try {
      const local = await PgAssistantEvents.create({ pool: kolkata });
      const at = (iso: string): Date => new Date(iso);
      await local.record([
        { projectId: KOLKATA, occurredAt: at('2024-03-01T10:10:00Z'), caller: 'web' },
        { projectId: KOLKATA, occurredAt: at('2024-03-01T10:40:00Z'), caller: 'web' },
        { projectId: KOLKATA, occurredAt: at('2024-03-01T11:05:00Z'), caller: 'api' },
      ]);
      const { rows } = await pool.query<{ hour: Date; events: string }>('SELECT hour, sum(events) AS events FROM assistant_event_hourly WHERE project_id = $1 GROUP BY hour ORDER BY hour', [KOLKATA]);
      assert.deepEqual(rows.map((r) => [r.hour.toISOString(), Number(r.events)]), [['2024-03-01T10:00:00.000Z', 2], ['2024-03-01T11:00:00.000Z', 1]]);
      // A range inside the 10:00 UTC hour counts exactly its events, through the Kolkata session too.
      assert.deepEqual(await local.callerStats(KOLKATA, { from: at('2024-03-01T10:00:00Z'), to: at('2024-03-01T10:30:00Z') }), { web: 1, api: 0, other: 0, total: 1 });
      assert.deepEqual(await local.callerStats(KOLKATA, { from: at('2024-03-01T10:00:00Z'), to: at('2024-03-01T11:00:00Z') }), { web: 2, api: 0, other: 0, total: 2 });
    } finally {
      await kolkata.end();
    }
  });
});
