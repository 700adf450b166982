import type { Logger } from '../../observability/logger.js';
import type { ControllerMetrics } from './metrics.js';
import type { WorkQueue } from './work-queue.js';

/** What a reconcile asks of the queue next. */
export type QueueDirective =
  | { kind: 'done' }
  | { kind: 'requeueAfter'; ms: number }
  | { kind: 'stalled'; reason: string }
  | { kind: 'retry'; error: Error }
  | { kind: 'conflict' };

/**
 * Workers that take keys from the queue, one reconcile in flight per key, and act on
 * the directive: forget on success, requeue-after, rate-limited retry on errors and
 * conflicts, nothing for stalled objects (they wait for a spec change).
 */
export class Workers {
  private running: Promise<void>[] = [];
  private active = 0;

  constructor(
    private readonly queue: WorkQueue,
    private readonly reconcile: (key: string) => Promise<QueueDirective>,
    private readonly metrics: ControllerMetrics,
    private readonly log: Logger,
    private readonly concurrency: number,
  ) {}

  start(): void {
    this.running = Array.from({ length: this.concurrency }, () => this.loop());
  }

  /** Resolves once every worker finished its current item (after the queue is shut down). */
  async drained(): Promise<void> {
    await Promise.all(this.running);
  }

  private async loop(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      this.metrics.activeWorkers(++this.active);
      const start = performance.now();
      let directive: QueueDirective;
      try {
        directive = await this.reconcile(key);
      } catch (error) {
        directive = { kind: 'retry', error: error instanceof Error ? error : new Error(String(error)) };
      }
      const seconds = (performance.now() - start) / 1000;
      switch (directive.kind) {
        case 'done':
        case 'stalled':
          this.queue.forget(key);
          this.metrics.reconcile('success', seconds);
          break;
        case 'requeueAfter':
          this.queue.forget(key);
          this.queue.addAfter(key, directive.ms);
          this.metrics.reconcile('requeue_after', seconds);
          break;
        case 'conflict':
          this.queue.addRateLimited(key);
          this.metrics.reconcile('requeue', seconds);
          break;
        case 'retry':
          this.log.warn('reconcile failed; retrying with backoff', { key, failures: this.queue.rateLimiter.failures(key) + 1, error: directive.error.message });
          this.queue.addRateLimited(key);
          this.metrics.reconcile('error', seconds);
          break;
      }
      this.queue.done(key);
      this.metrics.activeWorkers(--this.active);
    }
  }
}
