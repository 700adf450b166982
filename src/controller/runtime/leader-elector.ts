import type { LeaseLock, LeaseRecord } from '../../ports/lease-lock.js';
import type { Logger } from '../../observability/logger.js';

/**
 * Lease-based leader election with client-go's rules:
 *
 *   follower --(lease absent, released, or unchanged for leaseDuration)--> leader
 *   leader   --(renewed every retryPeriod)--> leader
 *   leader   --(no successful renewal for renewDeadline)--> follower (work stops)
 *   leader   --(release() on shutdown: holder cleared, 1 s lease)--> follower
 *
 * Expiry is judged on this process's clock from when it last saw the record change,
 * never by comparing another replica's timestamps, so clock skew cannot elect two leaders.
 */
export interface LeaderElectionTimings {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}
export const DEFAULT_TIMINGS: LeaderElectionTimings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

export interface LeaderCallbacks {
  onStartedLeading(): void;
  onStoppedLeading(): void;
}

export class LeaderElector {
  private observed?: LeaseRecord;
  private observedAt = 0;
  private leading = false;
  private lastRenew = 0;
  private stopped = false;
  private timer?: NodeJS.Timeout;
  private loop?: Promise<void>;

  constructor(
    private readonly lock: LeaseLock,
    readonly identity: string,
    private readonly callbacks: LeaderCallbacks,
    private readonly log: Logger,
    private readonly timings: LeaderElectionTimings = DEFAULT_TIMINGS,
    private readonly now: () => number = Date.now,
  ) {}

  isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    this.stopped = false;
    this.loop = this.run();
  }

  /** Stops campaigning; a leader releases the lease so another replica takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.wakeUp?.();
    await this.loop;
    if (this.leading) {
      this.setLeading(false);
      await this.release().catch((error: unknown) => this.log.warn('lease release failed', { error }));
    }
  }

  private wakeUp?: () => void;
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wakeUp = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const ok = await this.tryAcquireOrRenew().catch((error: unknown) => {
        this.log.debug('lease attempt failed', { lease: this.lock.description, error });
        return false;
      });
      if (this.stopped) break;
      if (ok) {
        this.lastRenew = this.now();
        if (!this.leading) this.setLeading(true);
      } else if (this.leading && this.now() - this.lastRenew >= this.timings.renewDeadlineMs) {
        this.log.warn('leadership lost: lease not renewed within the renew deadline', { lease: this.lock.description });
        this.setLeading(false);
      }
      // Jitter (client-go's 1.2 factor) keeps followers from retrying in lockstep.
      const delay = this.leading ? this.timings.retryPeriodMs : this.timings.retryPeriodMs * (1 + Math.random() * 0.2);
      await this.sleep(delay);
    }
  }

  private setLeading(leading: boolean): void {
    this.leading = leading;
    this.log.info(leading ? 'became leader' : 'stopped leading', { lease: this.lock.description, identity: this.identity });
    if (leading) this.callbacks.onStartedLeading();
    else this.callbacks.onStoppedLeading();
  }

  private async tryAcquireOrRenew(): Promise<boolean> {
    const now = this.now();
    const leaseSeconds = Math.ceil(this.timings.leaseDurationMs / 1000);
    const current = await this.lock.get();
    if (!current) {
      this.observe(await this.lock.create({ holderIdentity: this.identity, leaseDurationSeconds: leaseSeconds, acquireTime: new Date(now), renewTime: new Date(now), leaseTransitions: 0 }), now);
      return true;
    }
    if (!this.observed || this.observed.version !== current.version) this.observe(current, now);
    const heldByOther = current.holderIdentity !== '' && current.holderIdentity !== this.identity;
    if (heldByOther && this.observedAt + current.leaseDurationSeconds * 1000 > now) return false;
    const mine = current.holderIdentity === this.identity;
    const next: LeaseRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: leaseSeconds,
      acquireTime: mine ? current.acquireTime : new Date(now),
      renewTime: new Date(now),
      leaseTransitions: mine ? current.leaseTransitions : current.leaseTransitions + 1,
      ...(current.version ? { version: current.version } : {}),
    };
    this.observe(await this.lock.update(next), now);
    return true;
  }

  private async release(): Promise<void> {
    const current = await this.lock.get();
    if (!current || current.holderIdentity !== this.identity) return;
    await this.lock.update({ ...current, holderIdentity: '', leaseDurationSeconds: 1, renewTime: new Date(this.now()) });
  }

  private observe(record: LeaseRecord, now: number): void {
    this.observed = record;
    this.observedAt = now;
  }
}
