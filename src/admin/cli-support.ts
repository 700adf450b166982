import { parseArgs, type ParseArgsConfig } from 'node:util';
import type pg from 'pg';
import { PgIdentityStore } from '../adapters/postgres/pg-identity-store.js';
import { createPool } from '../adapters/postgres/pool.js';
import { parseConfig, type Config } from '../config/config.js';
import { DomainError, InputError } from '../domain/errors.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** Options parsing where a mistake is an InputError (exit code 2) that names the option. */
export function parseOptions<T extends ParseArgsConfig['options']>(args: readonly string[], options: T, usage: string) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new InputError(`${(error as Error).message}\n\nusage: ${usage}`);
  }
}

export function required(value: string | boolean | undefined, option: string, usage: string): string {
  if (typeof value !== 'string' || value === '') throw new InputError(`${option} is required\n\nusage: ${usage}`);
  return value;
}

export interface AdminDatabase {
  config: Config;
  pool: pg.Pool;
  identity: PgIdentityStore;
}

/** Opens the database named by DATABASE_URL (running the migrations), runs `fn`, and closes it. */
export async function withDatabase<T>(env: Env, fn: (db: AdminDatabase) => Promise<T>): Promise<T> {
  const config = parseConfig(env);
  if (!config.DATABASE_URL) throw new InputError('DATABASE_URL is not set: it must name the PostgreSQL database of the API');
  const pool = createPool(config.DATABASE_URL, 4);
  try {
    return await fn({ config, pool, identity: await PgIdentityStore.create({ pool }) });
  } finally {
    await pool.end();
  }
}

/** Runs a command body: domain errors print their message (and details) and exit 2; others propagate (exit 1). */
export async function runCommand(name: string, body: () => Promise<void>): Promise<number> {
  try {
    await body();
    return 0;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const details = error.details.map((d) => `\n  - ${d.message}`).join('');
    process.stderr.write(`docport ${name}: ${error.message}${details}\n`);
    return 2;
  }
}

/** Aligned columns for people, or one JSON document with --json for scripts. */
export function printRows(rows: ReadonlyArray<Record<string, string>>, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    process.stderr.write('(none)\n');
    return;
  }
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  process.stdout.write(`${[line(columns.map((c) => c.toUpperCase())), ...rows.map((r) => line(columns.map((c) => r[c] ?? '')))].join('\n')}\n`);
}
