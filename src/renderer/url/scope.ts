/**
 * Which URLs are pages of the export, and the one spelling each page is known by.
 *
 * A page is identified by scheme, host, port and path: fragments are dropped, query
 * strings are dropped (docs sites use them for highlighting and tracking, not for
 * distinct pages; see docs/renderer.md), and `dir/index.html` is the same page as `dir/`
 * because both are written to `dir/index.html`.
 */
export interface Scope {
  /** scheme://host[:port] of the origin, as URL.origin spells it. */
  readonly origin: string;
  /** Path prefixes that pages must be under. */
  readonly prefixes: readonly string[];
  /** Start URLs: the origin URL, or origin + each of `paths`. */
  readonly seeds: readonly string[];
}

export function createScope(originUrl: string, paths?: readonly string[]): Scope {
  const origin = new URL(originUrl);
  const basePath = origin.pathname === '' ? '/' : origin.pathname;
  const prefixes = paths && paths.length > 0 ? [...new Set(paths)] : [basePath];
  const seeds = prefixes.map((p) => new URL(p, origin.origin).href);
  return { origin: origin.origin, prefixes, seeds };
}

/** Whether `path` is the prefix itself or below it ("/guide" covers "/guide/x", not "/guides"). */
export function pathUnderPrefix(path: string, prefix: string): boolean {
  if (prefix.endsWith('/')) return path.startsWith(prefix) || path === prefix.slice(0, -1);
  return path === prefix || path.startsWith(`${prefix}/`);
}

export function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

export function sameOrigin(url: URL, scope: Scope): boolean {
  return url.origin === scope.origin;
}

export function inScope(url: URL, scope: Scope): boolean {
  return isHttpUrl(url) && sameOrigin(url, scope) && scope.prefixes.some((p) => pathUnderPrefix(url.pathname, p));
}

/** The canonical URL of a page: no fragment, no query, `.../index.html` folded into `.../`. */
export function normalizePageUrl(input: URL | string): URL {
  const url = new URL(typeof input === 'string' ? input : input.href);
  url.hash = '';
  url.search = '';
  url.pathname = url.pathname.replace(/\/index\.html?$/i, '/');
  return url;
}

export function pageKey(input: URL | string): string {
  return normalizePageUrl(input).href;
}

/** Resolves an attribute value against a base the way a browser would; undefined when unparseable. */
export function resolveUrl(value: string, base: string): URL | undefined {
  // Browsers strip leading/trailing ASCII whitespace and remove tabs/newlines inside URLs.
  const cleaned = value.trim().replace(/[\t\n\r]/g, '');
  if (cleaned === '') return undefined;
  try {
    return new URL(cleaned, base);
  } catch {
    return undefined;
  }
}
