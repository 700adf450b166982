import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../observability/logger.js';
import { AssetStore } from './assets/asset-store.js';
import { ByteBudget } from './assets/limits.js';
import type { PageRenderer } from './browser-port.js';
import { CrawlState } from './crawl/crawl-state.js';
import { Crawler } from './crawl/crawler.js';
import { isMetadataHostName } from './net/address-policy.js';
import { EgressProxy, type Refusal } from './net/egress-proxy.js';
import { guardedLookup, refusedLiteral } from './net/guarded-lookup.js';
import { HostPolicy } from './net/host-policy.js';
import { HttpFetcher } from './net/http-fetcher.js';
import { SEARCH_INDEX_FILE, SEARCH_SCRIPT_FILE } from './search/widget.js';
import type { RendererSettings } from './settings.js';
import { PathAllocator } from './url/path-allocator.js';
import { createScope, type Scope } from './url/scope.js';

/** Opens the browser; every request it makes must go through `proxyServer`. */
export type BrowserFactory = (proxyServer: string) => Promise<PageRenderer>;

export interface CrawlTarget {
  origin: string;
  paths?: readonly string[];
}

export interface CrawlSession {
  scope: Scope;
  state: CrawlState;
  assets: AssetStore;
  fetcher: HttpFetcher;
  budget: ByteBudget;
  tokenPrefix: string;
  workDir: string;
  /** Requests the egress proxy refused (URL -> reason). */
  refusals: Map<string, string>;
}

/** The origin itself must be fetchable; saying so up front beats a page of 403s. */
export async function checkOrigin(origin: string, settings: RendererSettings): Promise<void> {
  const url = new URL(origin);
  if (isMetadataHostName(url.hostname)) throw new Error(`origin ${url.host} is a metadata service host; refused`);
  const literal = refusedLiteral(url.hostname, settings.allowPrivateNetworks);
  if (literal) throw new Error(`cannot render ${url.origin}: ${literal}`);
  const lookup = promisify(guardedLookup(settings.allowPrivateNetworks) as (h: string, o: object, cb: (e: Error | null, a: string) => void) => void);
  try {
    await lookup(url.hostname.replace(/^\[|\]$/g, ''), {});
  } catch (error) {
    throw new Error(`cannot render ${url.origin}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * Sets up everything a crawl needs (work dir, egress proxy, fetcher, browser, stores),
 * runs `body`, and tears it all down whatever happens.
 */
export async function withCrawlSession<T>(
  target: CrawlTarget,
  mode: 'export' | 'index',
  settings: RendererSettings,
  openBrowser: BrowserFactory,
  log: Logger,
  onProgress: (done: number, pending: number, state: CrawlState) => void,
  body: (session: CrawlSession) => Promise<T>,
): Promise<T> {
  await checkOrigin(target.origin, settings);
  const workDir = await mkdtemp(path.join(settings.workDir, 'docport-render-'));
  const policy = new HostPolicy(target.origin, settings.assetHosts);
  const refusals = new Map<string, string>();
  const onRefused = (r: Refusal): void => {
    if (refusals.size < 10_000) refusals.set(r.url, r.reason);
  };
  const cleanups: Array<() => Promise<unknown>> = [() => rm(workDir, { recursive: true, force: true })];
  try {
    const proxy = await EgressProxy.start(policy, settings.allowPrivateNetworks, onRefused);
    cleanups.push(() => proxy.close());
    const fetcher = new HttpFetcher(policy, settings.allowPrivateNetworks, settings.pageTimeoutMs);
    cleanups.push(() => Promise.resolve(fetcher.close()));
    const renderer = await openBrowser(proxy.url);
    cleanups.push(() => renderer.close());
    const scope = createScope(target.origin, target.paths);
    const allocator = new PathAllocator();
    // Reserved first, so a site path can never take the search files' names.
    allocator.claim(SEARCH_SCRIPT_FILE);
    allocator.claim(SEARCH_INDEX_FILE);
    const budget = new ByteBudget(settings.maxExportBytes);
    const spoolDir = path.join(workDir, 'spool');
    const assets = new AssetStore({
      fetcher, policy, originOrigin: scope.origin, allocator, budget, maxAssetBytes: settings.maxAssetBytes, spoolDir, log,
    });
    const state = new CrawlState(mode === 'export' ? assets : undefined);
    const tokenPrefix = `dp${randomBytes(6).toString('hex')}x`;
    const crawler = new Crawler(
      { mode, scope, concurrency: settings.concurrency, retries: settings.pageRetries, maxPages: settings.maxPages, tokenPrefix, spoolDir },
      {
        renderer, fetcher, allocator, budget, state, log,
        ...(mode === 'export' ? { assets } : {}),
        onProgress: (done, pending) => onProgress(done, pending, state),
      },
    );
    await crawler.run();
    return await body({ scope, state, assets, fetcher, budget, tokenPrefix, workDir, refusals });
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => log.warn('cleanup failed', { error: String(error) }));
  }
}
