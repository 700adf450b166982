import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

export class BundleError extends Error {
  constructor(message: string, readonly permanent: boolean) {
    super(message);
    this.name = 'BundleError';
  }
}

/** The link without its query: presigned signatures never reach logs or errors. */
export const describeUrl = (url: string): string => {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
};

class Limit extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.max) return done(new BundleError(`bundle is larger than MAX_BUNDLE_BYTES (${this.max})`, true));
    this.hash.update(chunk);
    done(null, chunk);
  }
}

export interface Downloaded {
  sizeBytes: number;
  sha256: string;
  format: 'zip' | 'tar.gz';
}

async function attempt(url: string, target: string, maxBytes: number, timeoutMs: number): Promise<Downloaded> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    throw new BundleError(`cannot reach ${describeUrl(url)}: ${(error as Error).message}`, false);
  }
  if (!response.ok || !response.body) {
    // 4xx will not fix itself (an expired or tampered link is 403); 5xx and 429 may.
    const permanent = response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429;
    const hint = response.status === 403 ? ' (expired or invalid link? ask for a fresh one: POST /v1/static-export/jobs/{jobId}/bundle)' : '';
    throw new BundleError(`download of ${describeUrl(url)} failed with HTTP ${response.status}${hint}`, permanent);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BundleError(`bundle is ${declared} bytes, more than MAX_BUNDLE_BYTES (${maxBytes})`, true);
  const limit = new Limit(maxBytes);
  try {
    await pipeline(Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>), limit, createWriteStream(target, { mode: 0o600 }));
  } catch (error) {
    if (error instanceof BundleError) throw error;
    throw new BundleError(`download of ${describeUrl(url)} broke off: ${(error as Error).message}`, false);
  }
  const file = await open(target, 'r');
  const magic = Buffer.alloc(4);
  await file.read(magic, 0, 4, 0);
  await file.close();
  const format = magic[0] === 0x50 && magic[1] === 0x4b ? 'zip' : magic[0] === 0x1f && magic[1] === 0x8b ? 'tar.gz' : undefined;
  if (!format) throw new BundleError('the bundle is neither a zip nor a tar.gz archive', true);
  return { sizeBytes: limit.bytes, sha256: limit.hash.digest('hex'), format };
}

/**
 * Downloads the bundle to `target` with retries (exponential backoff, 1 s doubling) for
 * network errors and 5xx; client errors fail at once. Verifies sha256 when one is expected.
 */
export async function downloadBundle(
  url: string,
  target: string,
  options: { maxBytes: number; expectedSha256?: string; attempts: number; timeoutMs: number; onRetry?: (attempt: number, error: Error) => void },
): Promise<Downloaded> {
  let lastError: Error | undefined;
  for (let i = 1; i <= options.attempts; i++) {
    try {
      const downloaded = await attempt(url, target, options.maxBytes, options.timeoutMs);
      if (options.expectedSha256 && downloaded.sha256 !== options.expectedSha256.toLowerCase()) {
        throw new BundleError(`bundle checksum mismatch: expected sha256 ${options.expectedSha256}, got ${downloaded.sha256}`, true);
      }
      return downloaded;
    } catch (error) {
      lastError = error as Error;
      if (error instanceof BundleError && error.permanent) throw error;
      if (i < options.attempts) {
        options.onRetry?.(i, lastError);
        await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * 2 ** (i - 1))));
      }
    }
  }
  throw lastError ?? new BundleError('download failed', false);
}
