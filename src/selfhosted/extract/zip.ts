import { createWriteStream } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createInflateRaw } from 'node:zlib';
import { SizeBudget, UnsafeArchiveError, safeEntryPath } from './safe-entry.js';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

interface Entry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  isDirectory: boolean;
}

/** Counts bytes and CRC-32 as they pass, and stops at the declared size. */
class Checked extends Transform {
  private crc = 0;
  private seen = 0;
  constructor(private readonly entry: Entry, private readonly budget: SizeBudget) {
    super();
  }
  override _transform(chunk: Buffer, _e: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.entry.size) return done(new UnsafeArchiveError(`entry "${this.entry.name}" inflates beyond its declared size`));
    try {
      this.budget.take(chunk.length);
    } catch (error) {
      return done(error as Error);
    }
    this.crc = crc32(chunk, this.crc);
    done(null, chunk);
  }
  override _flush(done: TransformCallback): void {
    if (this.seen !== this.entry.size) return done(new UnsafeArchiveError(`entry "${this.entry.name}" is truncated`));
    if (this.crc >>> 0 !== this.entry.crc >>> 0) return done(new UnsafeArchiveError(`entry "${this.entry.name}" fails its CRC-32 check`));
    done();
  }
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new UnsafeArchiveError('archive is truncated');
  return buffer;
}

/** Reads the central directory (the authoritative list; local headers may defer sizes). */
async function centralDirectory(file: FileHandle, fileSize: number): Promise<Entry[]> {
  const tailLength = Math.min(fileSize, 22 + 0xffff);
  const tail = await readAt(file, fileSize - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) if (tail.readUInt32LE(i) === EOCD_SIGNATURE) { eocd = i; break; }
  if (eocd < 0) throw new UnsafeArchiveError('not a zip archive (no end of central directory)');
  const count = tail.readUInt16LE(eocd + 10);
  const size = tail.readUInt32LE(eocd + 12);
  const offset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw new UnsafeArchiveError('zip64 archives are not supported');
  if (offset + size > fileSize) throw new UnsafeArchiveError('central directory lies outside the archive');
  const dir = await readAt(file, offset, size);
  const entries: Entry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (dir.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw new UnsafeArchiveError('corrupt central directory');
    const flags = dir.readUInt16LE(p + 8);
    const method = dir.readUInt16LE(p + 10);
    const nameLength = dir.readUInt16LE(p + 28);
    const extraLength = dir.readUInt16LE(p + 30);
    const commentLength = dir.readUInt16LE(p + 32);
    const externalAttributes = dir.readUInt32LE(p + 38);
    const name = dir.toString((flags & 0x800) !== 0 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength);
    if ((flags & 0x1) !== 0) throw new UnsafeArchiveError(`entry "${name}" is encrypted`);
    const mode = externalAttributes >>> 16;
    const type = mode & S_IFMT;
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw new UnsafeArchiveError(`entry "${name}" is a link or special file`);
    entries.push({
      name, method, crc: dir.readUInt32LE(p + 16), compressedSize: dir.readUInt32LE(p + 20), size: dir.readUInt32LE(p + 24),
      localOffset: dir.readUInt32LE(p + 42), isDirectory: name.endsWith('/') || type === S_IFDIR,
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Extracts a zip (stored or deflated entries) into `root`, refusing anything unsafe. */
export async function extractZip(archive: string, root: string, maxBytes: number): Promise<number> {
  const file = await open(archive, 'r');
  try {
    const { size: fileSize } = await file.stat();
    const entries = await centralDirectory(file, fileSize);
    const budget = new SizeBudget(maxBytes);
    const seen = new Set<string>();
    let files = 0;
    for (const entry of entries) {
      const target = safeEntryPath(root, entry.name);
      if (seen.has(target)) throw new UnsafeArchiveError(`entry "${entry.name}" appears twice`);
      seen.add(target);
      if (entry.isDirectory) {
        await mkdir(target, { recursive: true });
        continue;
      }
      if (entry.method !== 0 && entry.method !== 8) throw new UnsafeArchiveError(`entry "${entry.name}" uses compression method ${entry.method}`);
      const local = await readAt(file, entry.localOffset, 30);
      if (local.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new UnsafeArchiveError(`entry "${entry.name}" has no local header`);
      const dataStart = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      if (dataStart + entry.compressedSize > fileSize) throw new UnsafeArchiveError(`entry "${entry.name}" lies outside the archive`);
      await mkdir(path.dirname(target), { recursive: true });
      const source: Readable = entry.compressedSize === 0 ? Readable.from([]) : file.createReadStream({ start: dataStart, end: dataStart + entry.compressedSize - 1, autoClose: false });
      // flags 'wx': never follow or overwrite something already there.
      const sink = createWriteStream(target, { flags: 'wx', mode: 0o644 });
      if (entry.method === 8 && entry.compressedSize > 0) await pipeline(source, createInflateRaw(), new Checked(entry, budget), sink);
      else await pipeline(source, new Checked(entry, budget), sink);
      files += 1;
    }
    return files;
  } finally {
    await file.close();
  }
}
