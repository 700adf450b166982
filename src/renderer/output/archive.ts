import { ZipArchive, TarArchive, type Archiver } from 'archiver';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import type { ObjectStore } from '../../ports/object-store.js';
import { assertSafeRelativePath } from '../url/local-path.js';

export type ArchiveFormat = 'zip' | 'tar.gz';

/** zlib level 6, the default of `zip -r` and `gzip`: archiver's own zip default is level 1. */
export const COMPRESSION_LEVEL = 6;

/** A fixed timestamp makes two exports of the same content byte-identical archives. */
const ENTRY_DATE = new Date('2000-01-01T00:00:00Z');

export function createArchive(format: ArchiveFormat): Archiver {
  return format === 'zip'
    ? new ZipArchive({ zlib: { level: COMPRESSION_LEVEL } })
    : new TarArchive({ gzip: true, gzipOptions: { level: COMPRESSION_LEVEL } });
}

/** Passes bytes through, hashing and counting them on the way. */
class Digest extends Transform {
  readonly hash = createHash('sha256');
  sizeBytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.sizeBytes += chunk.length;
    callback(null, chunk);
  }
}

export const ARCHIVE_CONTENT_TYPE: Record<ArchiveFormat, string> = { zip: 'application/zip', 'tar.gz': 'application/gzip' };

/**
 * Streams the files of `root` (relative paths, in the given order) through archiver into a
 * multipart upload, computing sha256 and size on the way: the archive is never held in
 * memory or written to disk. Every entry name is checked to stay inside the archive root.
 * Settles only once the upload has settled, so nothing lands after a failed result.json.
 */
export async function uploadArchive(store: ObjectStore, key: string, format: ArchiveFormat, root: string, files: readonly string[]): Promise<{ sizeBytes: number; sha256: string }> {
  const archive = createArchive(format);
  const digest = new Digest();
  let stop: (error: Error) => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  // Whichever side fails first stops the other: an upload that died no longer reads the
  // archive (finalize would never resolve), an archive that died must abort the upload.
  const fail = (error: Error): void => {
    stop(error);
    archive.abort();
    digest.destroy(error);
  };
  archive.on('error', fail);
  archive.on('warning', fail);
  archive.pipe(digest);
  const uploaded = store.upload(key, digest, ARCHIVE_CONTENT_TYPE[format]);
  const fed = (async (): Promise<void> => {
    for (const file of files) archive.file(path.join(root, assertSafeRelativePath(file)), { name: file, date: ENTRY_DATE, mode: 0o644 });
    await archive.finalize();
  })();
  try {
    // Both handled from the start: an upload error is never an unhandled rejection.
    await Promise.all([uploaded, Promise.race([fed, stopped])]);
  } catch (error) {
    fail(error instanceof Error ? error : new Error(String(error)));
    await uploaded.catch(() => undefined);
    throw error;
  }
  return { sizeBytes: digest.sizeBytes, sha256: digest.hash.digest('hex') };
}
