import { NotFoundError } from '../../domain/errors.js';
import type { IdentityStore } from '../../identity/identity-store.js';
import type { SearchHit, SearchQueries } from '../../search/search-queries.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { searchBody, searchParams, searchResponse } from './schema.js';
import type { z } from 'zod';

type Result = z.input<typeof searchResponse>[number];

export interface SearchDeps {
  identity: Pick<IdentityStore, 'findProjectByDomain'>;
  search: SearchQueries;
}

const present = (hit: SearchHit): Result => ({
  content: hit.content,
  path: hit.path,
  metadata: {
    score: hit.score, title: hit.title, headings: hit.headings, anchor: hit.anchor ?? null,
    version: hit.version ?? null, language: hit.language ?? null, tags: hit.tags,
  },
});

export function searchRoutes(deps: SearchDeps): AnyRoute[] {
  return [
    defineRoute({
      operationId: 'searchDocumentation',
      method: 'post',
      path: '/discovery/v1/search/{domain}',
      tag: 'search',
      summary: 'Search a documentation site',
      description: 'Full-text search over the heading sections of the domain\'s indexed pages. Assistant keys only; callable from browsers (CORS).',
      keyType: 'assistant',
      family: 'search',
      cors: true,
      params: searchParams,
      body: searchBody,
      response: { status: 200, name: 'SearchResults', schema: searchResponse, description: 'Results ordered by score, highest first.' },
      errors: [400, 401, 403, 404, 413, 415, 429, 500, 503],
      async handle({ params, body, principal }) {
        const project = await deps.identity.findProjectByDomain(params.domain);
        if (!project || project.organizationId !== principal.organization.id) throw new NotFoundError(`domain ${params.domain} not found`);
        const hits = await deps.search.search(project.domain, { query: body.query, pageSize: body.pageSize, scoreThreshold: body.scoreThreshold, filter: body.filter ?? {} });
        return hits.map(present);
      },
    }),
  ];
}
