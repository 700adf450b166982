import type { Context, Next } from 'koa';
import type { Logger } from '../../observability/logger.js';
import type { ApiState } from '../state.js';

/** One line per request. Headers are never logged (they carry keys); the path is, ids are not secrets. */
export function accessLog(logger: Logger) {
  return async (ctx: Context & { state: ApiState }, next: Next): Promise<void> => {
    const start = performance.now();
    try {
      await next();
    } finally {
      logger.info('request', {
        requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, route: ctx.state.route ?? 'unmatched', status: ctx.status,
        durationMs: Math.round((performance.now() - start) * 10) / 10,
        ...(ctx.state.principal ? { organizationId: ctx.state.principal.organization.id, keyId: ctx.state.principal.keyId } : {}),
      });
    }
  };
}
