import type { Context, Next } from 'koa';
import type { Counter } from 'prom-client';
import { RateLimitedError } from '../../domain/errors.js';
import type { RateLimitFamily, RateLimiter } from '../../ratelimit/rate-limiter.js';
import type { ApiState } from '../state.js';

export type HourlyLimits = Readonly<Record<RateLimitFamily, number>>;

/**
 * Takes one unit of the organization's hourly budget for the family. The RateLimit-* headers
 * (IETF draft: Reset is seconds until the window ends) go out on success and refusal alike.
 */
export function rateLimit(limiter: RateLimiter, limits: HourlyLimits, family: RateLimitFamily, refused: Counter<'family'>) {
  return async (ctx: Context & { state: ApiState }, next: Next): Promise<void> => {
    const organization = ctx.state.principal!.organization;
    const decision = await limiter.consume(organization.id, family, limits[family]);
    ctx.set({
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(decision.resetSeconds),
    });
    if (!decision.allowed) {
      refused.inc({ family });
      throw new RateLimitedError(
        `rate limit exceeded: ${decision.limit} ${family} requests per hour for organization "${organization.name}"; retry in ${decision.resetSeconds} s`,
        decision.resetSeconds,
      );
    }
    await next();
  };
}
