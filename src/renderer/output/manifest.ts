import type { UrlProblem } from '../assets/asset-store.js';

/** manifest.json: what the export holds and what it left out, and why. */
export interface ExportManifest {
  schemaVersion: 1;
  domain: string;
  version?: string;
  origin: string;
  paths: string[];
  generatedAt: string;
  totals: { pages: number; assets: number; files: number; bytes: number };
  pages: Array<{ url: string; path: string; title: string; sizeBytes: number; sha256: string; scriptsRemoved: boolean }>;
  assets: Array<{ url: string; aliases?: string[]; path: string; contentType?: string; sizeBytes: number; sha256: string }>;
  /** Deliberately not exported: host not allowed, refused address, over a limit, redirected out of scope. */
  skipped: UrlProblem[];
  /** Could not be exported: HTTP errors, timeouts, crashes after retries, network errors. */
  failed: UrlProblem[];
  /** Links of exported pages that were broken on the live site too (removed or fragment dropped). */
  brokenReferences: Array<UrlProblem & { page: string }>;
  /** Whether the pages' sections went into the domain/version's search index. */
  search: { indexedSections?: number; skipped?: string; error?: string };
}

const MAX_LISTED = 20_000;

/** Sorted, deduplicated, and capped so a pathological site cannot make a huge manifest. */
export function problemList(problems: Iterable<UrlProblem>): UrlProblem[] {
  const byUrl = new Map<string, string>();
  for (const p of problems) if (!byUrl.has(p.url)) byUrl.set(p.url, p.reason);
  return [...byUrl].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, MAX_LISTED).map(([url, reason]) => ({ url, reason }));
}
