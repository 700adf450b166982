import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { testDatabase } from '../support/postgres.js';

describe('real PostgreSQL', () => {
  it('round-trips rows through a private database', async () => {
    const url = await testDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL, at timestamptz NOT NULL DEFAULT now())');
      await client.query('INSERT INTO notes (body) VALUES ($1), ($2)', ['alpha', 'beta']);
      const { rows } = await client.query<{ body: string }>('SELECT body FROM notes ORDER BY id');
      assert.deepEqual(rows.map((r) => r.body), ['alpha', 'beta']);
      const { rows: [version] } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
      assert.ok(Number(version!.server_version_num) >= 130000, 'PostgreSQL 13 or newer');
    } finally {
      await client.end();
    }
  });
});
