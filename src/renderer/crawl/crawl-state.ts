import type { SectionInput } from '../../ports/search-index.js';
import type { AssetStore, UrlProblem } from '../assets/asset-store.js';
import type { ExportIndex, Target } from '../rewrite/resolve-reference.js';
import { pageKey } from '../url/scope.js';

/** A rendered page waiting in the spool for the final rewrite. */
export interface SpooledPage {
  url: string;
  path: string;
  title: string;
  spoolFile?: string;
  ids: ReadonlySet<string>;
  sections: SectionInput[];
  scriptsRemoved: boolean;
}

/**
 * Everything the crawl learned, and the ExportIndex the rewriter asks: which URL became
 * which file, which redirected where, which failed and why.
 */
export class CrawlState implements ExportIndex {
  readonly pages = new Map<string, SpooledPage>();
  private readonly idsByPath = new Map<string, ReadonlySet<string>>();
  /** Redirects inside the scope: page key -> key of the page it redirects to. */
  readonly aliases = new Map<string, string>();
  /** Redirects leaving the scope: page key -> final absolute URL (linked as external). */
  readonly redirectsOut = new Map<string, string>();
  readonly failedPages = new Map<string, string>();
  readonly skippedPages = new Map<string, string>();

  constructor(private readonly assets: AssetStore | undefined) {}

  addPage(key: string, page: SpooledPage): void {
    this.pages.set(key, page);
    this.idsByPath.set(page.path, page.ids);
  }

  resolveAlias(key: string): string {
    let current = key;
    for (let i = 0; i < 20 && this.aliases.has(current); i++) current = this.aliases.get(current)!;
    return current;
  }

  link(url: URL): Target {
    const key = this.resolveAlias(pageKey(url));
    const page = this.pages.get(key);
    if (page) return { kind: 'local', path: page.path };
    const out = this.redirectsOut.get(key);
    if (out) return { kind: 'external', url: out };
    const file = this.assets?.target(url.href);
    if (file?.kind === 'local') return file;
    const failed = this.failedPages.get(key);
    if (failed) return { kind: 'drop', reason: `linked page failed: ${failed}` };
    if (file?.kind === 'drop') return file;
    return { kind: 'external', url: url.href };
  }

  asset(url: URL): Target {
    return this.assets?.target(url.href) ?? { kind: 'drop', reason: 'not downloaded' };
  }

  idsOf(path: string): ReadonlySet<string> | undefined {
    return this.idsByPath.get(path);
  }

  pageFailures(): UrlProblem[] {
    return [...this.failedPages].map(([url, reason]) => ({ url, reason }));
  }

  pageSkips(): UrlProblem[] {
    return [...this.skippedPages].map(([url, reason]) => ({ url, reason }));
  }
}
