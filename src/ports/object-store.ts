import type { Readable } from 'node:stream';

/** What Docport needs from object storage; S3 is the adapter (src/adapters/s3). */
export interface ObjectStore {
  /** Stores a small object in one request. */
  put(key: string, body: Buffer | string, contentType: string): Promise<void>;
  /** Streams a large object through a multipart upload; returns its size in bytes. */
  upload(key: string, body: Readable, contentType: string): Promise<{ sizeBytes: number }>;
  /** Size and type of an object, or undefined when it does not exist. */
  head(key: string): Promise<{ sizeBytes: number; contentType?: string } | undefined>;
  read(key: string): Promise<Buffer | undefined>;
  /** A time-limited GET link that needs no credentials. */
  presignGet(key: string, ttlSeconds: number, now?: Date): Promise<{ url: string; expiresAt: Date }>;
  /** Deletes every object under the prefix; returns how many were deleted. Idempotent. */
  deletePrefix(prefix: string): Promise<number>;
  /** Whether the bucket is reachable with the configured credentials. */
  ping(): Promise<void>;
}
