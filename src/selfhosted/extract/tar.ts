import { createReadStream } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { SizeBudget, UnsafeArchiveError, safeEntryPath } from './safe-entry.js';

const BLOCK = 512;

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

function octal(header: Buffer, offset: number, length: number): number {
  const text = field(header, offset, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new UnsafeArchiveError('corrupt tar header (size)');
  return parseInt(text, 8);
}

function checksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum === octal(header, 148, 8);
}

function paxPath(records: Buffer): string | undefined {
  let p = 0;
  let found: string | undefined;
  while (p < records.length) {
    const space = records.indexOf(0x20, p);
    if (space < 0) break;
    const length = Number(records.toString('utf8', p, space));
    if (!Number.isInteger(length) || length <= 0) throw new UnsafeArchiveError('corrupt pax header');
    const record = records.toString('utf8', space + 1, p + length - 1);
    const eq = record.indexOf('=');
    const key = record.slice(0, eq);
    if (key === 'path') found = record.slice(eq + 1);
    if (key === 'linkpath') throw new UnsafeArchiveError('pax header declares a link');
    p += length;
  }
  return found;
}

/**
 * Reads the gunzipped tar as a stream of bytes with exact-length reads. Only regular
 * files and directories are accepted: links, devices and FIFOs are refused.
 */
export async function extractTarGz(archive: string, root: string, maxBytes: number): Promise<number> {
  const budget = new SizeBudget(maxBytes);
  const chunks = createReadStream(archive).pipe(createGunzip())[Symbol.asyncIterator]();
  let pending = Buffer.alloc(0);
  let ended = false;
  const read = async (length: number): Promise<Buffer | undefined> => {
    while (pending.length < length && !ended) {
      const next = await chunks.next();
      if (next.done) ended = true;
      else pending = Buffer.concat([pending, next.value as Buffer]);
    }
    if (pending.length < length) return undefined;
    const out = pending.subarray(0, length);
    pending = pending.subarray(length);
    return out;
  };
  const seen = new Set<string>();
  let files = 0;
  let longName: string | undefined;
  try {
    return await readEntries();
  } finally {
    // Close the file and gunzip stream on every exit, early or failed.
    await chunks.return?.();
  }

  async function readEntries(): Promise<number> {
  for (;;) {
    const header = await read(BLOCK);
    if (!header) throw new UnsafeArchiveError('tar archive ends without its end marker');
    if (header.every((b) => b === 0)) return files;
    if (!checksumOk(header)) throw new UnsafeArchiveError('corrupt tar header (checksum)');
    const type = String.fromCharCode(header[156]!);
    const size = octal(header, 124, 12);
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    if (type === 'x' || type === 'L') {
      if (size > 64 * 1024) throw new UnsafeArchiveError('oversized extended header');
      const body = await read(padded);
      if (!body) throw new UnsafeArchiveError('tar archive is truncated');
      longName = type === 'L' ? body.subarray(0, size).toString('utf8').replace(/\0+$/, '') : paxPath(body.subarray(0, size));
      continue;
    }
    if (type === 'g') {
      if (!(await read(padded))) throw new UnsafeArchiveError('tar archive is truncated');
      continue;
    }
    if (type !== '0' && type !== '\0' && type !== '5') throw new UnsafeArchiveError(`entry "${name.slice(0, 200)}" is a link or special file (type ${JSON.stringify(type)})`);
    const target = safeEntryPath(root, name);
    if (seen.has(target)) throw new UnsafeArchiveError(`entry "${name}" appears twice`);
    seen.add(target);
    if (type === '5') {
      await mkdir(target, { recursive: true });
      continue;
    }
    budget.take(size);
    await mkdir(path.dirname(target), { recursive: true });
    let handle: FileHandle | undefined;
    try {
      handle = await open(target, 'wx', 0o644);
      let left = size;
      while (left > 0) {
        const piece = await read(Math.min(left, 1024 * 1024));
        if (!piece) throw new UnsafeArchiveError(`entry "${name}" is truncated`);
        await handle.write(piece);
        left -= piece.length;
      }
    } finally {
      await handle?.close();
    }
    if (padded > size && !(await read(padded - size))) throw new UnsafeArchiveError('tar archive is truncated');
    files += 1;
  }
  }
}
