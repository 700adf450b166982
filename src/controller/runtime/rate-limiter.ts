/**
 * client-go's default controller rate limiter: the larger of a per-key exponential
 * backoff (5 ms doubling to 1000 s) and an overall token bucket (10/s, burst 100),
 * so one failing object backs off alone while a storm of failures is also capped.
 */
export interface RateLimiter {
  /** Delay before the next retry of `key`; counts a failure. */
  when(key: string): number;
  /** Resets the key's failures (after a success). */
  forget(key: string): void;
  failures(key: string): number;
}

export class ExponentialFailureRateLimiter implements RateLimiter {
  private readonly counts = new Map<string, number>();
  constructor(private readonly baseMs = 5, private readonly maxMs = 1_000_000) {}
  when(key: string): number {
    const n = this.counts.get(key) ?? 0;
    this.counts.set(key, n + 1);
    return Math.min(this.maxMs, this.baseMs * 2 ** Math.min(n, 40));
  }
  forget(key: string): void {
    this.counts.delete(key);
  }
  failures(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

export class TokenBucketRateLimiter {
  private tokens: number;
  private last: number;
  constructor(private readonly perSecond = 10, private readonly burst = 100, private readonly now: () => number = Date.now) {
    this.tokens = burst;
    this.last = now();
  }
  /** Reserves a token; returns how long to wait for it (0 when one is available). */
  reserve(): number {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.perSecond);
    this.last = t;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.perSecond) * 1000);
  }
}

export class DefaultControllerRateLimiter implements RateLimiter {
  constructor(
    private readonly perKey = new ExponentialFailureRateLimiter(),
    private readonly overall = new TokenBucketRateLimiter(),
  ) {}
  when(key: string): number {
    return Math.max(this.perKey.when(key), this.overall.reserve());
  }
  forget(key: string): void {
    this.perKey.forget(key);
  }
  failures(key: string): number {
    return this.perKey.failures(key);
  }
}
