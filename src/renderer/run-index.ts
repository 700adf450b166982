import type { Logger } from '../observability/logger.js';
import type { SearchIndex } from '../ports/search-index.js';
import { withCrawlSession, type BrowserFactory } from './crawl-session.js';
import type { ProgressReporter } from './progress.js';
import type { RendererSettings } from './settings.js';

export interface IndexRequest {
  domain: string;
  version?: string;
  origin: string;
  paths?: string[];
}

export interface IndexOutcome {
  pages: number;
  sections: number;
  failed: Array<{ url: string; reason: string }>;
}

/**
 * `docport index`: the same crawl as an export (same scope, rendering, redirects, limits),
 * without assets or outputs; the pages' sections replace the domain/version's search index.
 */
export async function runIndex(
  request: IndexRequest,
  deps: { searchIndex: SearchIndex; openBrowser: BrowserFactory; settings: RendererSettings; progress: ProgressReporter; log: Logger },
): Promise<IndexOutcome> {
  let pageCount = 0;
  const outcome = await withCrawlSession(request, 'index', deps.settings, deps.openBrowser, deps.log,
    (done, pending, state) => {
      pageCount = state.pages.size;
      deps.progress.update((done / Math.max(1, done + pending)) * 95, pageCount, `${pending} to go`);
    },
    async ({ state }) => {
      pageCount = state.pages.size;
      const failed = state.pageFailures();
      if (pageCount === 0) {
        throw new Error(`no page of ${request.origin} could be rendered${failed[0] ? `: ${failed[0].url}: ${failed[0].reason}` : ''}`);
      }
      const sections = [...state.pages.values()].flatMap((p) => p.sections);
      const { inserted } = await deps.searchIndex.replaceSections(request.domain, request.version, sections);
      return { pages: pageCount, sections: inserted, failed };
    });
  await deps.progress.finish(100, pageCount);
  return outcome;
}
