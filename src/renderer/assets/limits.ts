/** At most `size` tasks at once; the rest wait in order. */
export class Semaphore {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}

export class ExportTooLargeError extends Error {
  constructor(limit: number) {
    super(`the export is larger than RENDER_MAX_EXPORT_BYTES (${limit} bytes); raise the limit or narrow spec.paths`);
    this.name = 'ExportTooLargeError';
  }
}

/** The per-export byte budget (RENDER_MAX_EXPORT_BYTES), charged for every unique file stored. */
export class ByteBudget {
  used = 0;
  constructor(readonly limit: number) {}

  charge(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw new ExportTooLargeError(this.limit);
  }
}
