import type pg from 'pg';
import type { RateLimitDecision, RateLimitFamily, RateLimiter } from '../../ratelimit/rate-limiter.js';
import { runMigrations, type Migration } from './migrations.js';
import { databaseUnavailable } from './pool.js';

const MIGRATIONS: readonly Migration[] = [
  {
    id: '001-rate-limit-windows',
    sql: `
      CREATE TABLE rate_limit_windows (
        organization_id uuid NOT NULL,
        family text NOT NULL,
        window_start timestamptz NOT NULL,
        used integer NOT NULL,
        PRIMARY KEY (organization_id, family, window_start));`,
  },
];

/**
 * One row per organization, family and clock hour. The upsert takes the row lock and only
 * increments while `used < limit`, so concurrent requests on any number of replicas are counted
 * exactly: the (limit+1)th finds no row to update and is refused. The database clock decides the
 * window, so replicas with skewed clocks still agree on it.
 */
const CONSUME = `
  WITH clock AS (SELECT date_trunc('hour', now(), 'UTC') AS window_start, now() AS at),
  taken AS (
    INSERT INTO rate_limit_windows AS w (organization_id, family, window_start, used)
    SELECT $1, $2, window_start, 1 FROM clock
    ON CONFLICT (organization_id, family, window_start)
    DO UPDATE SET used = w.used + 1 WHERE w.used < $3
    RETURNING used)
  SELECT (SELECT used FROM taken) AS used,
         ceil(extract(epoch FROM (window_start + interval '1 hour' - at)))::int AS reset_seconds
  FROM clock`;

export class PgRateLimiter implements RateLimiter {
  private constructor(private readonly pool: pg.Pool) {}

  static async create(deps: { pool: pg.Pool }): Promise<PgRateLimiter> {
    await runMigrations(deps.pool, 'rate-limits', MIGRATIONS);
    return new PgRateLimiter(deps.pool);
  }

  async consume(organizationId: string, family: RateLimitFamily, limit: number): Promise<RateLimitDecision> {
    const { rows: [row] } = await this.pool
      .query<{ used: number | null; reset_seconds: number }>(CONSUME, [organizationId, family, limit])
      .catch((error: unknown) => { throw databaseUnavailable(error); });
    const resetSeconds = Math.max(1, row!.reset_seconds);
    if (row!.used === null) return { allowed: false, limit, remaining: 0, resetSeconds };
    return { allowed: true, limit, remaining: Math.max(0, limit - row!.used), resetSeconds };
  }

  /** Drops finished windows; the API server calls it periodically. Returns how many rows went. */
  async pruneFinishedWindows(): Promise<number> {
    const result = await this.pool
      .query(`DELETE FROM rate_limit_windows WHERE window_start < date_trunc('hour', now(), 'UTC')`)
      .catch((error: unknown) => { throw databaseUnavailable(error); });
    return result.rowCount ?? 0;
  }
}
