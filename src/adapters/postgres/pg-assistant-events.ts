import type pg from 'pg';
import type { AssistantEvent, AssistantEvents, CallerStats, DateRange } from '../../analytics/assistant-events.js';
import { runMigrations, type Migration } from './migrations.js';
import { databaseUnavailable } from './pool.js';

const MIGRATIONS: readonly Migration[] = [
  {
    id: '001-assistant-events',
    sql: `
      -- Append-only log of assistant requests. The covering index serves the partial hours at the
      -- edges of a range with index-only scans; whole hours come from the hourly rollup below.
      CREATE TABLE assistant_events (
        project_id uuid NOT NULL,
        occurred_at timestamptz NOT NULL,
        caller text NOT NULL CHECK (caller IN ('web', 'api', 'other')));
      CREATE INDEX assistant_events_project_time ON assistant_events (project_id, occurred_at) INCLUDE (caller);
      -- Counts per project, UTC hour and caller, maintained in the same statement as the log, so a
      -- 30-day range reads at most 720 x 3 rows whatever the event volume.
      CREATE TABLE assistant_event_hourly (
        project_id uuid NOT NULL,
        hour timestamptz NOT NULL,
        caller text NOT NULL,
        events bigint NOT NULL,
        PRIMARY KEY (project_id, hour, caller));`,
  },
];

/**
 * Inserts the events and adds their counts to the rollup atomically. Rollup rows are upserted in
 * key order so concurrent writers lock them in the same order and cannot deadlock. date_trunc
 * gets an explicit 'UTC': the session time zone must not move hour boundaries.
 */
const RECORD = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[]) AS t (project_id, occurred_at, caller)),
  logged AS (
    INSERT INTO assistant_events (project_id, occurred_at, caller) SELECT project_id, occurred_at, caller FROM input)
  INSERT INTO assistant_event_hourly AS h (project_id, hour, caller, events)
  SELECT project_id, date_trunc('hour', occurred_at, 'UTC'), caller, count(*) FROM input
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (project_id, hour, caller) DO UPDATE SET events = h.events + excluded.events`;

/** Whole hours from the rollup, the partial hours at both ends from the log. */
const CALLER_STATS = `
  SELECT caller, sum(n)::bigint AS n FROM (
    SELECT caller, events AS n FROM assistant_event_hourly
      WHERE project_id = $1 AND hour >= $2 AND hour < $3
    UNION ALL
    SELECT caller, count(*) FROM assistant_events
      WHERE project_id = $1 AND occurred_at >= $4 AND occurred_at < $5 GROUP BY caller
    UNION ALL
    SELECT caller, count(*) FROM assistant_events
      WHERE project_id = $1 AND occurred_at >= $6 AND occurred_at < $7 GROUP BY caller
  ) parts GROUP BY caller`;

const HOUR_MS = 3600 * 1000;

/** Splits [from, to) into a leading partial hour, whole hours, and a trailing partial hour. */
export function splitByHour(range: DateRange): { head: DateRange; hours: DateRange; tail: DateRange } {
  const from = range.from.getTime();
  const to = range.to.getTime();
  const firstWhole = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const lastWhole = Math.floor(to / HOUR_MS) * HOUR_MS;
  if (firstWhole >= lastWhole) {
    // No whole hour inside: everything is read from the log.
    return { head: range, hours: { from: new Date(from), to: new Date(from) }, tail: { from: new Date(to), to: new Date(to) } };
  }
  return {
    head: { from: new Date(from), to: new Date(firstWhole) },
    hours: { from: new Date(firstWhole), to: new Date(lastWhole) },
    tail: { from: new Date(lastWhole), to: new Date(to) },
  };
}

export class PgAssistantEvents implements AssistantEvents {
  private constructor(private readonly pool: pg.Pool) {}

  static async create(deps: { pool: pg.Pool }): Promise<PgAssistantEvents> {
    await runMigrations(deps.pool, 'assistant-events', MIGRATIONS);
    return new PgAssistantEvents(deps.pool);
  }

  async record(events: readonly AssistantEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    await this.pool
      .query(RECORD, [events.map((e) => e.projectId), events.map((e) => e.occurredAt), events.map((e) => e.caller)])
      .catch((error: unknown) => { throw databaseUnavailable(error); });
    return events.length;
  }

  async callerStats(projectId: string, range: DateRange): Promise<CallerStats> {
    const { head, hours, tail } = splitByHour(range);
    const { rows } = await this.pool
      .query<{ caller: string; n: string }>(CALLER_STATS, [projectId, hours.from, hours.to, head.from, head.to, tail.from, tail.to])
      .catch((error: unknown) => { throw databaseUnavailable(error); });
    const count = (caller: string): number => Number(rows.find((r) => r.caller === caller)?.n ?? 0);
    const stats = { web: count('web'), api: count('api'), other: count('other') };
    return { ...stats, total: stats.web + stats.api + stats.other };
  }
}
