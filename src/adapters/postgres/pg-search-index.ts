import type pg from 'pg';
import type { SearchIndex, SectionInput } from '../../ports/search-index.js';
import type { SearchHit, SearchQueries, SearchRequest } from '../../search/search-queries.js';
import { runMigrations, type Migration } from './migrations.js';
import { databaseUnavailable, inTransaction } from './pool.js';

const MIGRATIONS: readonly Migration[] = [
  {
    id: '001-search-sections',
    sql: `
      -- One row per heading section. version '' is the unversioned documentation (so equality and
      -- the index work without NULL special cases). The document vector weighs the page title (A),
      -- the heading hierarchy (B) and the text (C).
      CREATE TABLE search_sections (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        domain text NOT NULL,
        version text NOT NULL,
        path text NOT NULL,
        anchor text,
        title text NOT NULL,
        headings text[] NOT NULL,
        content text NOT NULL,
        language text,
        tags text[] NOT NULL,
        document tsvector NOT NULL);
      CREATE INDEX search_sections_document ON search_sections USING gin (document);
      CREATE INDEX search_sections_domain_version ON search_sections (domain, version);`,
  },
];

/** Rows per INSERT: 11 parameters each, well under PostgreSQL's 65535. */
const INSERT_BATCH = 1000;

const INSERT = `
  INSERT INTO search_sections (domain, version, path, anchor, title, headings, content, language, tags, document)
  SELECT $1, $2, s.path, s.anchor, s.title, arrays.headings, s.content, s.language, arrays.tags,
         setweight(to_tsvector('english', s.title), 'A')
      || setweight(to_tsvector('english', s.heading_text), 'B')
      || setweight(to_tsvector('english', s.content), 'C')
  FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
    AS s (path, anchor, title, heading_text, headings_json, content, language, tags_json)
  CROSS JOIN LATERAL (SELECT
    ARRAY(SELECT jsonb_array_elements_text(s.headings_json::jsonb)) AS headings,
    ARRAY(SELECT jsonb_array_elements_text(s.tags_json::jsonb)) AS tags) arrays`;

/**
 * ts_rank with normalization 32 maps the rank r to r/(r+1), a score in [0, 1). The threshold,
 * filters, order and limit all run in SQL; websearch_to_tsquery accepts any user input
 * ("quoted phrases", or, -exclusions) without syntax errors.
 */
const SEARCH = `
  SELECT path, anchor, title, headings, content, version, language, tags, score FROM (
    SELECT s.*, ts_rank(s.document, q.query, 32)::float8 AS score
    FROM search_sections s, websearch_to_tsquery('english', $2) AS q (query)
    WHERE s.domain = $1 AND s.document @@ q.query
      AND ($3::text IS NULL OR s.version = $3)
      AND ($4::text IS NULL OR s.language = $4)
      AND ($5::text IS NULL OR s.tags @> ARRAY[$5::text])
  ) ranked
  WHERE score >= $6
  ORDER BY score DESC, id
  LIMIT $7`;

interface HitRow {
  path: string; anchor: string | null; title: string; headings: string[]; content: string;
  version: string; language: string | null; tags: string[]; score: number;
}

export class PgSearchIndex implements SearchIndex, SearchQueries {
  private constructor(private readonly pool: pg.Pool) {}

  static async create(deps: { pool: pg.Pool }): Promise<PgSearchIndex> {
    await runMigrations(deps.pool, 'search', MIGRATIONS);
    return new PgSearchIndex(deps.pool);
  }

  async replaceSections(domain: string, version: string | undefined, sections: readonly SectionInput[]): Promise<{ inserted: number }> {
    return inTransaction(this.pool, async (client) => {
      // Serializes replacements of the same domain and version; readers keep seeing the old rows until commit.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`search:${domain}:${version ?? ''}`]);
      await client.query('DELETE FROM search_sections WHERE domain = $1 AND version = $2', [domain, version ?? '']);
      for (let i = 0; i < sections.length; i += INSERT_BATCH) {
        const batch = sections.slice(i, i + INSERT_BATCH);
        await client.query(INSERT, [
          domain, version ?? '',
          batch.map((s) => s.path),
          batch.map((s) => s.anchor ?? null),
          batch.map((s) => s.title),
          batch.map((s) => s.headings.join(' ')),
          batch.map((s) => JSON.stringify(s.headings)),
          batch.map((s) => s.content),
          batch.map((s) => s.language ?? null),
          batch.map((s) => JSON.stringify(s.tags ?? [])),
        ]);
      }
      return { inserted: sections.length };
    }).catch((error: unknown) => { throw databaseUnavailable(error); });
  }

  async search(domain: string, request: SearchRequest): Promise<SearchHit[]> {
    const { rows } = await this.pool
      .query<HitRow>(SEARCH, [
        domain, request.query, request.filter.version ?? null, request.filter.language ?? null, request.filter.tag ?? null,
        request.scoreThreshold, request.pageSize,
      ])
      .catch((error: unknown) => { throw databaseUnavailable(error); });
    return rows.map((r) => ({
      content: r.content, path: r.path, title: r.title, headings: r.headings, tags: r.tags, score: Number(r.score),
      ...(r.anchor !== null ? { anchor: r.anchor } : {}),
      ...(r.version !== '' ? { version: r.version } : {}),
      ...(r.language !== null ? { language: r.language } : {}),
    }));
  }
}
