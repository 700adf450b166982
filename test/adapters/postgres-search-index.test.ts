import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type pg from 'pg';
import { createPool } from '../../src/adapters/postgres/pool.js';
import { PgSearchIndex } from '../../src/adapters/postgres/pg-search-index.js';
import type { SectionInput } from '../../src/ports/search-index.js';
import { cleanup } from '../support/environment.js';
import { testDatabase } from '../support/postgres.js';

const section = (path: string, content: string, extra: Partial<SectionInput> = {}): SectionInput =>
  ({ path, title: `Title of ${path}`, headings: [`Title of ${path}`], content, ...extra });
const request = (query: string) => ({ query, pageSize: 50, scoreThreshold: 0, filter: {} });

describe('PgSearchIndex: replaceSections and search', () => {
  let pool: pg.Pool;
  let index: PgSearchIndex;
  before(async () => {
    pool = createPool(await testDatabase(), 6);
    cleanup(() => pool.end());
    index = await PgSearchIndex.create({ pool });
  });

  it('replaces exactly one domain and version, leaving the others', async () => {
    await index.replaceSections('a.example.com', 'v1', [section('/one/', 'alpha'), section('/two/', 'alpha beta')]);
    await index.replaceSections('a.example.com', 'v2', [section('/one/', 'alpha')]);
    await index.replaceSections('b.example.com', 'v1', [section('/one/', 'alpha')]);
    assert.deepEqual(await index.replaceSections('a.example.com', 'v1', [section('/three/', 'alpha gamma')]), { inserted: 1 });
    const hits = await index.search('a.example.com', request('alpha'));
    assert.deepEqual(hits.map((h) => `${h.version}:${h.path}`).sort(), ['v1:/three/', 'v2:/one/']);
    assert.deepEqual(await index.replaceSections('a.example.com', 'v2', []), { inserted: 0 });
    assert.deepEqual((await index.search('a.example.com', request('alpha'))).map((h) => h.path), ['/three/']);
    assert.equal((await index.search('b.example.com', request('alpha'))).length, 1);
  });

  it('serializes concurrent replacements of the same version: one complete set survives', async () => {
    const sets = Array.from({ length: 4 }, (_, i) => Array.from({ length: 300 }, (_, j) => section(`/set${i}/p${j}/`, `delta set${i}`)));
    await Promise.all(sets.map((s) => index.replaceSections('c.example.com', undefined, s)));
    const { rows } = await pool.query<{ set: string; n: number }>(
      `SELECT split_part(path, '/', 2) AS set, count(*)::int AS n FROM search_sections WHERE domain = 'c.example.com' GROUP BY 1`);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.n, 300);
  });

  it('inserts in batches larger than one statement, and keeps unicode, anchors and tags', async () => {
    const many = Array.from({ length: 2500 }, (_, i) => section(`/p${i}/`, `epsilon ${i} — naïve café`, { anchor: `a${i}`, tags: ['t1', `t${i}`], language: 'fr' }));
    assert.deepEqual(await index.replaceSections('d.example.com', 'v1', many), { inserted: 2500 });
    const [hit] = await index.search('d.example.com', { query: 'epsilon', pageSize: 1, scoreThreshold: 0, filter: { tag: 't1234' } });
    assert.deepEqual({ path: hit!.path, anchor: hit!.anchor, tags: hit!.tags, content: hit!.content, language: hit!.language },
      { path: '/p1234/', anchor: 'a1234', tags: ['t1', 't1234'], content: 'epsilon 1234 — naïve café', language: 'fr' });
  });
});
