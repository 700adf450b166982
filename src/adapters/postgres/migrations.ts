import type pg from 'pg';
import { inTransaction } from './pool.js';

/** One schema change, applied once, in order, never edited after release (add a new one instead). */
export interface Migration {
  id: string;
  sql: string;
}

/**
 * Applies a component's pending migrations. A transaction-scoped advisory lock serializes
 * replicas that start together, so each migration runs exactly once.
 */
export async function runMigrations(pool: pg.Pool, component: string, migrations: readonly Migration[]): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('docport-migrations'))`);
    await client.query(`CREATE TABLE IF NOT EXISTS docport_migrations (
      component text NOT NULL, id text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (component, id))`);
    const { rows } = await client.query<{ id: string }>('SELECT id FROM docport_migrations WHERE component = $1', [component]);
    const applied = new Set(rows.map((r) => r.id));
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO docport_migrations (component, id) VALUES ($1, $2)', [component, migration.id]);
    }
  });
}
