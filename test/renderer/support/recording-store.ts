// Our ObjectStore port around the real S3 store: records when each write starts and
// settles, and fails chosen writes on purpose, to check the order of the outputs.
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import type { ObjectStore } from '../../../src/ports/object-store.js';

export interface WriteEvent {
  key: string;
  phase: 'start' | 'done' | 'failed';
}

export interface Faults {
  /** Fails this put (1-based count of puts under `files/`) instead of writing it. */
  failFilePut?: number;
  /** Delay before each other put, so that several are in flight when one fails. */
  putDelayMs?: number;
  /** Fails the archive upload after it has read its first chunk. */
  failUpload?: boolean;
}

export class RecordingStore implements ObjectStore {
  readonly events: WriteEvent[] = [];
  private filePuts = 0;

  constructor(private readonly inner: ObjectStore, private readonly faults: Faults = {}) {}

  async put(key: string, body: Buffer | string, contentType: string): Promise<void> {
    const n = key.includes('/files/') ? ++this.filePuts : 0;
    await this.record(key, async () => {
      if (n > 0 && n === this.faults.failFilePut) throw new Error(`injected failure of put ${key}`);
      if (this.faults.putDelayMs) await new Promise((r) => setTimeout(r, this.faults.putDelayMs));
      await this.inner.put(key, body, contentType);
    });
  }

  upload(key: string, body: Readable, contentType: string): Promise<{ sizeBytes: number }> {
    return this.record(key, async () => {
      if (!this.faults.failUpload) return this.inner.upload(key, body, contentType);
      for await (const chunk of body) {
        void chunk;
        break; // the archive is being produced: now the upload dies
      }
      throw new Error(`injected failure of upload ${key}`);
    });
  }

  head(key: string): ReturnType<ObjectStore['head']> { return this.inner.head(key); }
  read(key: string): ReturnType<ObjectStore['read']> { return this.inner.read(key); }
  presignGet(key: string, ttl: number, now?: Date): ReturnType<ObjectStore['presignGet']> { return this.inner.presignGet(key, ttl, now); }
  deletePrefix(prefix: string): ReturnType<ObjectStore['deletePrefix']> { return this.inner.deletePrefix(prefix); }
  ping(): Promise<void> { return this.inner.ping(); }

  private async record<T>(key: string, write: () => Promise<T>): Promise<T> {
    this.events.push({ key, phase: 'start' });
    try {
      const out = await write();
      this.events.push({ key, phase: 'done' });
      return out;
    } catch (error) {
      this.events.push({ key, phase: 'failed' });
      throw error;
    }
  }
}

/** result.json started after every other write settled, and nothing happened after it. */
export function assertResultWrittenLast(events: readonly WriteEvent[]): void {
  const trace = events.map((e) => `${e.phase} ${e.key.replace(/^.*\/g\d+\//, '')}`).join('\n');
  const start = events.findIndex((e) => e.key.endsWith('/result.json') && e.phase === 'start');
  assert.ok(start >= 0, `result.json was never written:\n${trace}`);
  assert.equal(start, events.length - 2, `writes around or after result.json:\n${trace}`);
  assert.deepEqual(events.at(-1), { key: events[start]!.key, phase: 'done' }, trace);
  const open = new Set<string>();
  for (const e of events.slice(0, start)) {
    if (e.phase === 'start') open.add(e.key);
    else open.delete(e.key);
  }
  assert.deepEqual([...open], [], `still in flight when result.json was written:\n${trace}`);
}
