import { Router } from '@koa/router';
import Koa from 'koa';
import type { Registry } from 'prom-client';
import type { AssistantEvents } from '../analytics/assistant-events.js';
import type { ExportJobs } from '../exportjobs/export-jobs.js';
import type { IdentityStore } from '../identity/identity-store.js';
import type { Logger } from '../observability/logger.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { SearchQueries } from '../search/search-queries.js';
import { analyticsRoutes } from './analytics/router.js';
import { errorMiddleware } from './errors.js';
import { healthz, readyz, type Readiness } from './health/probes.js';
import { accessLog } from './middleware/access-log.js';
import { httpMetrics } from './middleware/http-metrics.js';
import type { HourlyLimits } from './middleware/rate-limit.js';
import { requestId } from './middleware/request-id.js';
import { openApiDocument } from './openapi/document.js';
import { mountRoute, type AnyRoute } from './route.js';
import { searchRoutes } from './search/router.js';
import { staticExportRoutes } from './static-export/router.js';
import type { ApiState } from './state.js';

export interface ApiDeps {
  identity: IdentityStore;
  rateLimiter: RateLimiter;
  events: AssistantEvents;
  search: SearchQueries;
  exportJobs: ExportJobs;
  limits: HourlyLimits;
  bodyLimitBytes: number;
  registry: Registry;
  logger: Logger;
  clock: () => Date;
  readiness: Readiness;
  version: string;
}

/** Every operation of the REST API, in document order. */
export function apiRoutes(deps: ApiDeps): AnyRoute[] {
  return [
    ...analyticsRoutes({ identity: deps.identity, events: deps.events, clock: deps.clock }),
    ...staticExportRoutes(deps.exportJobs),
    ...searchRoutes({ identity: deps.identity, search: deps.search }),
  ];
}

/** The public REST API: the operations, /openapi.json and the probes. */
export function createApiApp(deps: ApiDeps): Koa<ApiState> {
  const app = new Koa<ApiState>();
  const metrics = httpMetrics(deps.registry);
  const router = new Router<ApiState>();
  const routes = apiRoutes(deps);
  for (const route of routes) {
    mountRoute(router, route, {
      identity: deps.identity, rateLimiter: deps.rateLimiter, limits: deps.limits, bodyLimitBytes: deps.bodyLimitBytes, rateLimited: metrics.rateLimited,
    });
  }
  const document = openApiDocument(routes, { version: deps.version });
  const named = (route: string) => async (ctx: Koa.Context & { state: ApiState }, next: Koa.Next): Promise<void> => {
    ctx.state.route = route;
    await next();
  };
  router.get('/openapi.json', named('/openapi.json'), (ctx) => { ctx.body = document; });
  router.get('/healthz', named('/healthz'), healthz);
  router.get('/readyz', named('/readyz'), readyz(deps.readiness));

  app.use(requestId);
  app.use((ctx, next) => metrics.middleware(ctx, next));
  app.use(accessLog(deps.logger));
  app.use(errorMiddleware(deps.logger));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** The operations listener: /metrics and the probes, kept off the public port. */
export function createOpsApp(deps: Pick<ApiDeps, 'registry' | 'logger' | 'readiness'>): Koa<ApiState> {
  const app = new Koa<ApiState>();
  const router = new Router<ApiState>();
  router.get('/metrics', async (ctx) => {
    ctx.type = deps.registry.contentType;
    ctx.body = await deps.registry.metrics();
  });
  router.get('/healthz', healthz);
  router.get('/readyz', readyz(deps.readiness));
  app.use(requestId);
  app.use(errorMiddleware(deps.logger));
  app.use(router.routes());
  return app;
}
