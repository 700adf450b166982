import pg from 'pg';
import { cleanup, requireEnv, uniqueName } from './environment.js';

/** A fresh database on the test PostgreSQL server, dropped after the suite. Returns its URL. */
export async function testDatabase(): Promise<string> {
  const adminUrl = requireEnv('DOCPORT_DATABASE_URL', 'PostgreSQL');
  const name = uniqueName('t').replace('-', '_');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  cleanup(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => c.end());
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
