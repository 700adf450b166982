import type { Context, Next } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { ApiState } from '../state.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

export interface HttpMetrics {
  middleware(ctx: Context & { state: ApiState }, next: Next): Promise<void>;
  rateLimited: Counter<'family'>;
}

/**
 * Labels are bounded: the route template (never the raw path, which carries ids), the method
 * (unknown ones become OTHER) and the status class.
 */
export function httpMetrics(registry: Registry): HttpMetrics {
  const labelNames = ['method', 'route', 'status_class'] as const;
  const requests = new Counter({ name: 'docport_api_requests_total', help: 'REST API requests by route template and status class.', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'docport_api_request_duration_seconds', help: 'REST API request latency by route template and status class.', labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
  });
  const rateLimited = new Counter({ name: 'docport_api_rate_limited_total', help: 'Requests refused by the per-organization rate limits.', labelNames: ['family'], registers: [registry] });
  return {
    rateLimited,
    async middleware(ctx, next) {
      const start = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const labels = {
          method: METHODS.has(ctx.method) ? ctx.method : 'OTHER',
          route: ctx.state.route ?? 'unmatched',
          status_class: `${Math.floor(ctx.status / 100)}xx`,
        };
        requests.inc(labels);
        duration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
      }
    },
  };
}
