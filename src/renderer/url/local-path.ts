import { createHash } from 'node:crypto';
import { posix } from 'node:path';

/**
 * Where a URL lives inside the export. Paths are POSIX, relative to the export root,
 * never absolute, never containing "." or ".." segments (checked by assertSafeRelativePath
 * before anything is written or archived).
 */

export const EXTERNAL_DIR = '_external';

// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const UNSAFE_CHARS = /[\u0000-\u001f\u007f\\:*?"<>|]/g;
const MAX_SEGMENT = 150;

const shortHash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 8);

/** One decoded, filesystem-safe path segment. */
export function sanitizeSegment(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    decoded = raw;
  }
  let segment = decoded.replace(/\//g, '_').replace(UNSAFE_CHARS, '_');
  if (segment === '.' || segment === '..') segment = segment.replace(/\./g, '_');
  if (segment.length > MAX_SEGMENT) {
    const ext = posix.extname(segment).slice(0, 16);
    segment = `${segment.slice(0, MAX_SEGMENT - 9 - ext.length)}-${shortHash(segment)}${ext}`;
  }
  return segment;
}

function sanitizedSegments(pathname: string): string[] {
  return pathname.split('/').filter((s) => s !== '').map(sanitizeSegment).filter((s) => s !== '');
}

/** `/` -> index.html, `/a/` -> a/index.html, `/a/b.html` -> a/b.html, `/a/b` -> a/b/index.html. */
export function pageLocalPath(url: URL): string {
  const segments = sanitizedSegments(url.pathname);
  const last = segments.at(-1);
  if (last === undefined || url.pathname.endsWith('/')) return [...segments, 'index.html'].join('/');
  if (/\.html?$/i.test(last)) return segments.join('/');
  return [...segments, 'index.html'].join('/');
}

/** File extensions a browser or static server accepts for a content type (first is preferred). */
const EXTENSIONS: Record<string, readonly string[]> = {
  'text/css': ['css'],
  'text/javascript': ['js', 'mjs'],
  'application/javascript': ['js', 'mjs'],
  'application/x-javascript': ['js'],
  'text/html': ['html', 'htm'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/svg+xml': ['svg'],
  'image/webp': ['webp'],
  'image/avif': ['avif'],
  'image/x-icon': ['ico'],
  'image/vnd.microsoft.icon': ['ico'],
  'font/woff2': ['woff2'],
  'font/woff': ['woff'],
  'font/ttf': ['ttf'],
  'font/otf': ['otf'],
  'application/font-woff': ['woff'],
  'application/font-woff2': ['woff2'],
  'application/manifest+json': ['webmanifest', 'json'],
  'application/json': ['json'],
  'application/pdf': ['pdf'],
  'video/mp4': ['mp4'],
  'video/webm': ['webm'],
  'audio/mpeg': ['mp3'],
  'text/vtt': ['vtt'],
};

export function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined;
}

export function extensionFor(contentType: string | undefined): readonly string[] | undefined {
  const type = mediaType(contentType);
  return type === undefined ? undefined : EXTENSIONS[type];
}

/**
 * Same-origin assets keep their path; other allowed hosts go under _external/<host>/.
 * A query string makes a distinct file (`app.q-1a2b3c4d.css`), and a missing or wrong
 * extension is fixed from the content type, because file:// and static servers type
 * files by extension.
 */
export function assetLocalPath(url: URL, originOrigin: string, contentType?: string): string {
  const segments = sanitizedSegments(url.pathname);
  if (url.origin !== originOrigin) segments.unshift(EXTERNAL_DIR, sanitizeSegment(url.host.replace(':', '_')));
  if (url.pathname.endsWith('/') || segments.length === 0 || (url.origin !== originOrigin && segments.length === 2)) segments.push('index');
  let name = segments.pop()!;
  const ext = posix.extname(name).slice(1).toLowerCase();
  if (url.search !== '' && url.search !== '?') {
    const stem = ext === '' ? name : name.slice(0, -(ext.length + 1));
    name = `${stem}.q-${shortHash(url.search)}${ext === '' ? '' : `.${ext}`}`;
  }
  const wanted = extensionFor(contentType);
  if (wanted && !wanted.includes(ext)) name = `${name}.${wanted[0]}`;
  return [...segments, name].join('/');
}

/** Throws unless `path` is a relative POSIX path that stays inside the export root. */
export function assertSafeRelativePath(path: string): string {
  const problem =
    path === '' ? 'is empty'
    : path.length > 1024 ? 'is longer than 1024 characters'
    : path.startsWith('/') ? 'is absolute'
    : path.includes('\\') ? 'contains a backslash'
    : path.includes('\u0000') ? 'contains NUL'
    : path.split('/').some((s) => s === '' || s === '.' || s === '..') ? 'has an empty, "." or ".." segment'
    : undefined;
  if (problem) throw new Error(`unsafe export path ${JSON.stringify(path.slice(0, 200))}: ${problem}`);
  return path;
}

/** Characters encodeURIComponent escapes that are fine (and more readable) in a path segment. */
const SEGMENT_SAFE = /%(21|24|26|27|28|29|2A|2B|2C|3B|3D|3A|40)/gi;

function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(SEGMENT_SAFE, (m) => decodeURIComponent(m));
}

/** The relative URL from one export file to another, e.g. a/b/index.html -> a/c.css = ../c.css. */
export function relativeHref(fromFile: string, toFile: string): string {
  const fromDir = fromFile.split('/').slice(0, -1);
  const to = toFile.split('/');
  let common = 0;
  while (common < fromDir.length && common < to.length - 1 && fromDir[common] === to[common]) common++;
  const up = fromDir.length - common;
  const parts = [...Array<string>(up).fill('..'), ...to.slice(common).map(encodeSegment)];
  const href = parts.join('/');
  // A first segment with ":" would read as a scheme ("a:b.html"); "./" keeps it a path.
  return up === 0 && parts[0]?.includes(':') ? `./${href}` : href;
}

/** The prefix that leads from a file back to the export root ("", "../", "../../"). */
export function rootPrefix(fromFile: string): string {
  return '../'.repeat(fromFile.split('/').length - 1);
}
