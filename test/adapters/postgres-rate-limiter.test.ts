import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import pg from 'pg';
import { createPool } from '../../src/adapters/postgres/pool.js';
import { PgRateLimiter } from '../../src/adapters/postgres/pg-rate-limiter.js';
import { cleanup } from '../support/environment.js';
import { testDatabase } from '../support/postgres.js';

const ORG = '6f1c1f4e-8d1c-4c36-9a43-2f1b0b5a7e10';
const KOLKATA_ORG = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe('PgRateLimiter: fixed hourly windows in PostgreSQL', () => {
  let pool: pg.Pool;
  let limiter: PgRateLimiter;
  let url: string;
  before(async () => {
    url = await testDatabase();
    pool = createPool(url, 10);
    cleanup(() => pool.end());
    limiter = await PgRateLimiter.create({ pool });
  });

  it('admits exactly the limit under concurrency, then refuses with the time to the window end', async () => {
    const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.consume(ORG, 'export', 25)));
    assert.equal(decisions.filter((d) => d.allowed).length, 25);
    const refused = decisions.find((d) => !d.allowed)!;
    assert.equal(refused.remaining, 0);
    const { rows } = await pool.query<{ left: number }>(`SELECT extract(epoch FROM date_trunc('hour', now(), 'UTC') + interval '1 hour' - now())::float AS left`);
    assert.ok(Math.abs(refused.resetSeconds - rows[0]!.left) <= 2, `${refused.resetSeconds} vs ${rows[0]!.left}`);
    assert.equal((await limiter.consume(ORG, 'search', 25)).remaining, 24, 'families are separate');
  });

  it('uses UTC clock hours for windows when the session is in a half-hour time zone', async () => {
    const kolkata = new pg.Pool({ connectionString: url, max: 2, options: '-c timezone=Asia/Kolkata' });
    try {
      const local = await PgRateLimiter.create({ pool: kolkata });
      const decision = await local.consume(KOLKATA_ORG, 'export', 10);
      assert.equal(decision.remaining, 9);
      const { rows } = await pool.query<{ window_start: Date }>('SELECT window_start FROM rate_limit_windows WHERE organization_id = $1', [KOLKATA_ORG]);
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.window_start.getTime() % 3_600_000, 0, `window starts at ${rows[0]!.window_start.toISOString()}, not on a UTC hour`);
      // The same organization seen from a UTC session lands in the same window.
      assert.equal((await limiter.consume(KOLKATA_ORG, 'export', 10)).remaining, 8);
    } finally {
      await kolkata.end();
    }
  });

  it('starts a fresh budget in the next window and prunes finished windows', async () => {
    await pool.query(`INSERT INTO rate_limit_windows VALUES ($1, 'analytics', date_trunc('hour', now(), 'UTC') - interval '1 hour', 100)`, [ORG]);
    const decision = await limiter.consume(ORG, 'analytics', 100);
    assert.deepEqual({ allowed: decision.allowed, remaining: decision.remaining }, { allowed: true, remaining: 99 });
    assert.equal(await limiter.pruneFinishedWindows(), 1);
    const { rows } = await pool.query('SELECT family, used FROM rate_limit_windows WHERE organization_id = $1 ORDER BY family', [ORG]);
    assert.deepEqual(rows, [{ family: 'analytics', used: 1 }, { family: 'export', used: 25 }, { family: 'search', used: 1 }]);
  });
});
