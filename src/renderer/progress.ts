import type { Logger } from '../observability/logger.js';

/** Where progress goes: the StaticExport status (status.progress and status.pageCount only). */
export type ProgressSink = (progress: number, pageCount: number) => Promise<void>;

/**
 * Reports progress at most once per interval (plus a final report), never going
 * backwards, with one patch in flight at a time. A failing patch is logged and the
 * render goes on: progress is informative, the controller decides the outcome.
 */
export class ProgressReporter {
  private progress = 0;
  private pageCount = 0;
  private lastSent = -Infinity;
  private lastPrinted = -Infinity;
  private inflight: Promise<void> | undefined;
  private sentProgress = -1;
  private sentPages = -1;
  /** Patches sent, for tests and logs. */
  patches = 0;

  constructor(
    private readonly sink: ProgressSink | undefined,
    private readonly print: (line: string) => void,
    private readonly log: Logger,
    private readonly intervalMs = 1000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  update(progress: number, pageCount: number, detail = ''): void {
    this.progress = Math.max(this.progress, Math.min(100, Math.max(0, Math.floor(progress))));
    this.pageCount = pageCount;
    const t = this.now();
    if (t - this.lastPrinted >= this.intervalMs) {
      this.lastPrinted = t;
      this.print(`[render] ${String(this.progress).padStart(3)}%  ${pageCount} pages${detail ? `  ${detail}` : ''}`);
    }
    if (t - this.lastSent >= this.intervalMs && !this.inflight) this.send(t);
  }

  /** Waits for the patch in flight, then sends the final state (when it changed). */
  async finish(progress: number | undefined, pageCount: number): Promise<void> {
    if (progress !== undefined) this.progress = Math.max(this.progress, progress);
    this.pageCount = pageCount;
    this.print(`[render] ${String(this.progress).padStart(3)}%  ${pageCount} pages  done`);
    await this.inflight;
    if (this.progress !== this.sentProgress || this.pageCount !== this.sentPages) {
      this.send(this.now());
      await this.inflight;
    }
  }

  private send(t: number): void {
    if (!this.sink) return;
    this.lastSent = t;
    const progress = this.progress;
    const pageCount = this.pageCount;
    this.patches++;
    this.inflight = this.sink(progress, pageCount).then(
      () => {
        this.sentProgress = progress;
        this.sentPages = pageCount;
      },
      (error: unknown) => this.log.warn('could not report progress', { error: error instanceof Error ? error.message : String(error) }),
    ).finally(() => (this.inflight = undefined));
  }
}
