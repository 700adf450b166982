import type { RateLimiter } from './rate-limiter.js';
import { DefaultControllerRateLimiter } from './rate-limiter.js';

/** Observer of queue activity, for controller-runtime's workqueue_* metrics. */
export interface QueueMetrics {
  add(): void;
  depth(n: number): void;
  latency(seconds: number): void;
  workDuration(seconds: number): void;
  retry(): void;
}
const noMetrics: QueueMetrics = { add() {}, depth() {}, latency() {}, workDuration() {}, retry() {} };

/**
 * A rate-limited work queue with client-go's semantics: a key is queued at most once
 * (dedupe), is never handed to two workers at once (a key added while processing is
 * queued again when `done`), can be delayed (`addAfter`, keeping the earliest time) or
 * retried with backoff (`addRateLimited`). `shutDown` stops intake; `get` then drains
 * what is queued and resolves undefined.
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly addedAt = new Map<string, number>();
  private readonly startedAt = new Map<string, number>();
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private waiters: Array<(key: string | undefined) => void> = [];
  private shuttingDown = false;

  constructor(
    readonly rateLimiter: RateLimiter = new DefaultControllerRateLimiter(),
    private readonly metrics: QueueMetrics = noMetrics,
  ) {}

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.metrics.add();
    this.dirty.add(key);
    this.addedAt.set(key, performance.now());
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.metrics.depth(this.queue.length);
    this.wake();
  }

  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(key);
    const at = Date.now() + delayMs;
    const existing = this.timers.get(key);
    if (existing && existing.at <= at) return;
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delayMs);
    this.timers.set(key, { at, timer });
  }

  addRateLimited(key: string): void {
    this.metrics.retry();
    this.addAfter(key, this.rateLimiter.when(key));
  }

  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  /** Waits for the next key; undefined once shut down and drained. */
  get(): Promise<string | undefined> {
    const key = this.queue.shift();
    if (key !== undefined) return Promise.resolve(this.take(key));
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(key: string): void {
    this.processing.delete(key);
    const started = this.startedAt.get(key);
    if (started !== undefined) this.metrics.workDuration((performance.now() - started) / 1000);
    this.startedAt.delete(key);
    if (this.dirty.has(key)) {
      this.queue.push(key);
      this.metrics.depth(this.queue.length);
      this.wake();
    }
  }

  get length(): number {
    return this.queue.length;
  }

  isProcessing(key: string): boolean {
    return this.processing.has(key);
  }

  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(undefined);
  }

  private take(key: string): string {
    this.dirty.delete(key);
    this.processing.add(key);
    this.startedAt.set(key, performance.now());
    const added = this.addedAt.get(key);
    if (added !== undefined) this.metrics.latency((performance.now() - added) / 1000);
    this.addedAt.delete(key);
    this.metrics.depth(this.queue.length);
    return key;
  }

  private wake(): void {
    while (this.waiters.length > 0 && this.queue.length > 0) {
      const waiter = this.waiters.shift()!;
      waiter(this.take(this.queue.shift()!));
    }
  }
}
