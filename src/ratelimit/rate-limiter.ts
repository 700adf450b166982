/** Endpoint families that share one hourly budget per organization. */
export const RATE_LIMIT_FAMILIES = ['analytics', 'export', 'search'] as const;
export type RateLimitFamily = (typeof RATE_LIMIT_FAMILIES)[number];

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the current window after this one. */
  remaining: number;
  /** Seconds until the current window ends and the budget is restored. */
  resetSeconds: number;
}

/**
 * Fixed hourly windows per organization and family, shared by every API replica.
 * `consume` takes one unit atomically; it never lets more than `limit` through in a window.
 */
export interface RateLimiter {
  consume(organizationId: string, family: RateLimitFamily, limit: number): Promise<RateLimitDecision>;
}
