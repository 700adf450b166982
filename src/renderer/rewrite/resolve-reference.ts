import { rewriteCss } from '../css/css-references.js';
import type { ReferenceKind } from '../html/dom-policy.js';
import { parseSrcset, serializeSrcset } from '../html/srcset.js';
import { relativeHref } from '../url/local-path.js';
import { isHttpUrl, resolveUrl } from '../url/scope.js';

/** Where a URL ends up in the export. */
export type Target =
  | { kind: 'local'; path: string }
  | { kind: 'external'; url: string }
  | { kind: 'drop'; reason: string };

/** What the finished crawl knows, asked by the rewriter. URLs are passed without fragment. */
export interface ExportIndex {
  /** A navigation target: an exported page or file, the live URL, or nothing. */
  link(url: URL): Target;
  /** A resource the page loads: an exported file, or nothing (never hot-linked). */
  asset(url: URL): Target;
  /** Ids of an exported page (undefined for non-page files). */
  idsOf(path: string): ReadonlySet<string> | undefined;
}

export interface ReferenceIssue {
  url: string;
  reason: string;
}

export interface RewriteContext {
  /** Export path of the file holding the reference. */
  filePath: string;
  /** URL relative values resolve against (the document base or the stylesheet URL). */
  baseUrl: string;
  index: ExportIndex;
  /** Broken links and missing fragments found while rewriting, for the manifest. */
  issues: ReferenceIssue[];
}

const withoutHash = (url: URL): URL => {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy;
};

function decodeFragment(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}

/** Whether a fragment points at something in the page ("top" and "" always do). */
function fragmentExists(fragment: string, ids: ReadonlySet<string> | undefined): boolean {
  if (fragment === '' || fragment.toLowerCase() === 'top' || ids === undefined) return true;
  return ids.has(fragment);
}

function localHref(ctx: RewriteContext, path: string, url: URL, checkFragment: boolean): string {
  const fragment = url.hash === '' ? '' : decodeFragment(url.hash);
  let hash = url.hash;
  if (checkFragment && !fragmentExists(fragment, ctx.index.idsOf(path))) {
    ctx.issues.push({ url: url.href, reason: `missing fragment #${fragment} (link kept, fragment dropped)` });
    hash = '';
  }
  if (path === ctx.filePath && hash !== '') return hash;
  return relativeHref(ctx.filePath, path) + hash;
}

/** A navigation (a href, form action, refresh). null removes the attribute. */
export function rewriteLink(value: string, ctx: RewriteContext): string | null {
  const trimmed = value.trim();
  if (trimmed.startsWith('#')) {
    const fragment = decodeFragment(trimmed);
    if (fragmentExists(fragment, ctx.index.idsOf(ctx.filePath))) return trimmed;
    ctx.issues.push({ url: trimmed, reason: `missing fragment ${trimmed} in the same page (fragment dropped)` });
    return '#';
  }
  const url = resolveUrl(value, ctx.baseUrl);
  if (url?.protocol === 'file:') {
    // A path on the machine that built the live site: meaningless in a copy (and a leak).
    ctx.issues.push({ url: url.href, reason: 'file: URL removed' });
    return null;
  }
  if (!url || !isHttpUrl(url)) return value;
  const target = ctx.index.link(withoutHash(url));
  switch (target.kind) {
    case 'local': return localHref(ctx, target.path, url, true);
    case 'external': return new URL(url.hash, target.url).href;
    case 'drop':
      ctx.issues.push({ url: url.href, reason: target.reason });
      return null;
  }
}

/** A resource reference: a local relative path or nothing. */
export function rewriteAsset(value: string, ctx: RewriteContext): string | null {
  if (value.trim().startsWith('#')) return value; // same-document (e.g. an inlined SVG sprite)
  const url = resolveUrl(value, ctx.baseUrl);
  if (!url) return null;
  if (!isHttpUrl(url)) return value; // data:, blob: stay as they are
  const target = ctx.index.asset(withoutHash(url));
  return target.kind === 'local' ? localHref(ctx, target.path, url, false) : null;
}

export function rewriteSrcset(value: string, ctx: RewriteContext): string | null {
  const candidates = parseSrcset(value).flatMap((c) => {
    const url = rewriteAsset(c.url, ctx);
    return url === null ? [] : [{ url, descriptor: c.descriptor }];
  });
  return candidates.length === 0 ? null : serializeSrcset(candidates);
}

export function rewriteStyle(css: string, ctx: RewriteContext): string {
  return rewriteCss(css, (ref) => {
    if (ref.url.startsWith('#')) return undefined; // url(#filter) points into the document
    const url = resolveUrl(ref.url, ctx.baseUrl);
    if (!url) return null;
    if (!isHttpUrl(url)) return undefined;
    const target = ctx.index.asset(withoutHash(url));
    return target.kind === 'local' ? localHref(ctx, target.path, url, false) : null;
  });
}

/** `<meta http-equiv=refresh content="5; url=...">`: the URL part is a navigation. */
export function rewriteMetaRefresh(value: string, ctx: RewriteContext): string | null {
  const m = /^(\s*\d*\.?\d*\s*[;,]?\s*(?:url\s*=\s*)?)(['"]?)(.*?)\2\s*$/i.exec(value);
  if (!m || m[3] === undefined || m[3] === '') return value;
  const link = rewriteLink(m[3], ctx);
  return link === null ? null : `${m[1]}${link}`;
}

/** The new value of one reference; null removes the attribute. */
export function rewriteReference(kind: ReferenceKind, value: string, ctx: RewriteContext): string | null {
  switch (kind) {
    case 'link': return rewriteLink(value, ctx);
    case 'frame': {
      const url = resolveUrl(value, ctx.baseUrl);
      if (!url || !isHttpUrl(url)) return value;
      const target = ctx.index.link(withoutHash(url));
      return target.kind === 'local' ? localHref(ctx, target.path, url, true) : null;
    }
    case 'asset': return rewriteAsset(value, ctx);
    case 'srcset': return rewriteSrcset(value, ctx);
    case 'style-attr':
    case 'style-element': return rewriteStyle(value, ctx);
    case 'meta-refresh': return rewriteMetaRefresh(value, ctx);
  }
}
