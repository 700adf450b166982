import pg from 'pg';
import { UnavailableError } from '../../domain/errors.js';

export type { Pool } from 'pg';

/** One pool per process. The URL is a secret: it never reaches an error message or a log line. */
export function createPool(databaseUrl: string, size: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: size, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `fn` in a transaction, rolling back on any error. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect().catch((error: unknown) => { throw databaseUnavailable(error); });
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Connection failures (not SQL errors) become UnavailableError: the caller should retry later. */
export function databaseUnavailable(error: unknown): Error {
  const code = (error as { code?: string }).code;
  // SQLSTATE 08 (connection), 53 (insufficient resources, e.g. too many connections), 57P0x
  // (shutdown), and the socket errors of a server that is down or unreachable.
  const connection = code === undefined ? true
    : /^(08|53|57P0)/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE'].includes(code);
  if (!connection) return error instanceof Error ? error : new Error(String(error));
  return new UnavailableError(`database unavailable: ${error instanceof Error ? error.message : String(error)}`);
}

/** Any failure counts: readiness only asks whether queries work right now. */
export async function ping(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT 1').catch((error: unknown) => {
    throw new UnavailableError(`database unavailable: ${error instanceof Error ? error.message : String(error)}`);
  });
}
