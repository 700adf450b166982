import { posix } from 'node:path';
import { assertSafeRelativePath } from './local-path.js';

/**
 * Hands out export paths so that no two resources share a file and no file is also
 * needed as a directory (`/a` as a file and `/a/b.png` below it): a clash gets a
 * numbered name (`logo.png` -> `logo-2.png`). Case clashes are not resolved:
 * export targets are case-sensitive (S3, Linux servers, zip/tar).
 */
export class PathAllocator {
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();

  /** Claims `wanted`, or the first free numbered variant; returns the claimed path. */
  claim(wanted: string): string {
    assertSafeRelativePath(wanted);
    for (let n = 1; n <= 10_000; n++) {
      const candidate = n === 1 ? wanted : this.variant(wanted, n);
      if (this.isFree(candidate)) {
        this.files.add(candidate);
        const parts = candidate.split('/');
        for (let i = 1; i < parts.length; i++) this.dirs.add(parts.slice(0, i).join('/'));
        return candidate;
      }
    }
    throw new Error(`no free export path for ${wanted}`);
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  private isFree(path: string): boolean {
    if (this.files.has(path) || this.dirs.has(path)) return false;
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) if (this.files.has(parts.slice(0, i).join('/'))) return false;
    return true;
  }

  /**
   * Numbers the file name (a/logo.png -> a/logo-2.png), or the directory when one of the
   * parent directories is already a file (a/b/index.html with a file "a" -> a-2/b/index.html).
   */
  private variant(path: string, n: number): string {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (this.files.has(parts.slice(0, i).join('/'))) {
        parts[i - 1] = `${parts[i - 1]}-${n}`;
        return parts.join('/');
      }
    }
    const base = parts.pop()!;
    const ext = posix.extname(base);
    const stem = ext === '' ? base : base.slice(0, -ext.length);
    return [...parts, `${stem}-${n}${ext}`].join('/');
  }
}
