import type { AssistantEvents } from '../../analytics/assistant-events.js';
import { resolveDateRange } from '../../analytics/date-range.js';
import { NotFoundError } from '../../domain/errors.js';
import type { IdentityStore } from '../../identity/identity-store.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { callerStatsParams, callerStatsQuery, callerStatsResponse } from './schema.js';

export interface AnalyticsDeps {
  identity: Pick<IdentityStore, 'getProject'>;
  events: AssistantEvents;
  clock: () => Date;
}

export function analyticsRoutes(deps: AnalyticsDeps): AnyRoute[] {
  return [
    defineRoute({
      operationId: 'getAssistantCallerStats',
      method: 'get',
      path: '/v1/analytics/{projectId}/assistant/caller-stats',
      tag: 'analytics',
      summary: 'Assistant requests by caller type',
      description: 'Counts the assistant requests of a project in [dateFrom, dateTo) by caller type (web, api, other). Served from hourly rollups, so any range answers in milliseconds. Shares the analytics rate limit of the organization.',
      keyType: 'admin',
      family: 'analytics',
      params: callerStatsParams,
      query: callerStatsQuery,
      response: { status: 200, name: 'CallerStats', schema: callerStatsResponse, description: 'Counts by caller type.' },
      errors: [400, 401, 403, 404, 429, 500, 503],
      precheck: ({ query }) => resolveDateRange(query, deps.clock()),
      async handle({ params, principal, checked: range }) {
        const project = await deps.identity.getProject(params.projectId);
        // Another organization's project is indistinguishable from a missing one.
        if (!project || project.organizationId !== principal.organization.id) throw new NotFoundError(`project ${params.projectId} not found`);
        return deps.events.callerStats(project.id, range);
      },
    }),
  ];
}
