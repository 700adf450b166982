import path from 'node:path';

export class UnsafeArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeArchiveError';
  }
}

/**
 * Maps an archive entry name to a path inside `root`, or refuses it: absolute paths,
 * drive letters, backslashes, NUL bytes, `..` segments and anything that would land
 * outside the root ("zip slip") are errors, never silently rewritten.
 */
export function safeEntryPath(root: string, name: string): string {
  if (name.length === 0 || name.length > 4096) throw new UnsafeArchiveError(`entry name of length ${name.length}`);
  if (name.includes('\0') || name.includes('\\')) throw new UnsafeArchiveError(`entry "${printable(name)}" has a NUL or backslash`);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw new UnsafeArchiveError(`entry "${printable(name)}" is absolute`);
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) throw new UnsafeArchiveError(`entry "${printable(name)}" climbs out of the root`);
  const target = path.resolve(root, ...segments);
  const rel = path.relative(root, target);
  if (rel === '' ? segments.length > 0 : rel.startsWith('..') || path.isAbsolute(rel)) throw new UnsafeArchiveError(`entry "${printable(name)}" escapes the root`);
  return target;
}

const printable = (s: string): string => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);

/** Running total of extracted bytes against a limit (archive bombs). */
export class SizeBudget {
  private used = 0;
  constructor(private readonly limit: number) {}
  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw new UnsafeArchiveError(`extracted content exceeds ${this.limit} bytes`);
  }
}
