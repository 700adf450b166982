import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command,
  PutObjectCommand, S3Client, S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { UnavailableError } from '../../domain/errors.js';
import type { ObjectStore } from '../../ports/object-store.js';

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey');

/** Keeps SDK error text (which can name the bucket and key, never credentials) but types it for callers. */
function unavailable(action: string, error: unknown): UnavailableError {
  const status = error instanceof S3ServiceException ? ` (HTTP ${error.$metadata.httpStatusCode ?? '?'}, ${error.name})` : '';
  return new UnavailableError(`object storage ${action} failed${status}: ${error instanceof Error ? error.message : String(error)}`);
}

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // Recent SDKs send aws-chunked bodies with checksums that many S3-compatible stores mishandle.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export class S3ObjectStore implements ObjectStore {
  constructor(private readonly client: S3Client, private readonly bucket: string) {}

  static fromSettings(settings: S3Settings): S3ObjectStore {
    return new S3ObjectStore(createS3Client(settings), settings.bucket);
  }

  async put(key: string, body: Buffer | string, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }))
      .catch((error: unknown) => { throw unavailable(`put ${key}`, error); });
  }

  async upload(key: string, body: Readable, contentType: string): Promise<{ sizeBytes: number }> {
    let sizeBytes = 0;
    body.on('data', (chunk: Buffer) => (sizeBytes += chunk.length));
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }, partSize: 8 * 1024 * 1024, queueSize: 2 });
    await upload.done().catch((error: unknown) => { throw unavailable(`upload ${key}`, error); });
    return { sizeBytes };
  }

  async head(key: string): Promise<{ sizeBytes: number; contentType?: string } | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { sizeBytes: out.ContentLength ?? 0, ...(out.ContentType ? { contentType: out.ContentType } : {}) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw unavailable(`head ${key}`, error);
    }
  }

  async read(key: string): Promise<Buffer | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Buffer.from(await out.Body!.transformToByteArray());
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw unavailable(`read ${key}`, error);
    }
  }

  async presignGet(key: string, ttlSeconds: number, now: Date = new Date()): Promise<{ url: string; expiresAt: Date }> {
    const url = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: ttlSeconds, signingDate: now });
    return { url, expiresAt: new Date(Math.floor(now.getTime() / 1000) * 1000 + ttlSeconds * 1000) };
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (prefix === '' || !prefix.endsWith('/')) throw new Error(`refusing to delete with prefix "${prefix}": it must be non-empty and end with "/"`);
    let deleted = 0;
    try {
      for (;;) {
        const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, MaxKeys: 1000 }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length === 0) return deleted;
        await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
        deleted += keys.length;
      }
    } catch (error) {
      throw unavailable(`delete ${prefix}*`, error);
    }
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket })).catch((error: unknown) => { throw unavailable('bucket check', error); });
  }
}
