import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Logger } from '../../observability/logger.js';
import type { AssetStore } from '../assets/asset-store.js';
import type { ByteBudget } from '../assets/limits.js';
import { PageRenderError, type PageLink, type PageLoad, type PageRenderer, type PageSnapshot } from '../browser-port.js';
import { findCssReferences } from '../css/css-references.js';
import { DOM_POLICY, shouldRemoveScripts } from '../html/dom-policy.js';
import { parseSrcset } from '../html/srcset.js';
import type { HttpFetcher } from '../net/http-fetcher.js';
import { buildSections, parseTags } from '../sections/extract-sections.js';
import { pageLocalPath } from '../url/local-path.js';
import type { PathAllocator } from '../url/path-allocator.js';
import { inScope, isHttpUrl, normalizePageUrl, pageKey, resolveUrl, type Scope } from '../url/scope.js';
import type { CrawlState } from './crawl-state.js';
import { Frontier, looksLikeFile, type FrontierEntry } from './frontier.js';
import { parseSitemap, sitemapsFromRobots } from './sitemap.js';

export interface CrawlOptions {
  mode: 'export' | 'index';
  scope: Scope;
  concurrency: number;
  retries: number;
  maxPages: number;
  tokenPrefix: string;
  spoolDir: string;
}

export interface CrawlDeps {
  renderer: PageRenderer;
  fetcher: HttpFetcher;
  /** Present in export mode. */
  assets?: AssetStore;
  allocator: PathAllocator;
  budget: ByteBudget;
  state: CrawlState;
  log: Logger;
  /** Called after every finished URL with pages done and URLs still known to be pending. */
  onProgress(done: number, pending: number): void;
}

const MAX_SITEMAPS = 50;
const SITEMAP_BYTES = 50 * 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Breadth-first crawl of the scope with a fixed number of workers (one per pooled page).
 * Seeds: the start URLs, robots.txt Sitemap: lines and sitemap.xml; then every link of
 * the rendered DOM. Redirects are followed and remembered; a failing page is retried
 * with backoff when another attempt can help, then recorded as failed.
 */
export class Crawler {
  private readonly frontier: Frontier;
  private active = 0;
  private done = 0;
  private spooled = 0;
  /** The first error that fails the crawl; every worker and retry loop stops on it. */
  private failure: { error: unknown } | undefined;

  constructor(private readonly options: CrawlOptions, private readonly deps: CrawlDeps) {
    this.frontier = new Frontier(options.maxPages);
  }

  async run(): Promise<void> {
    for (const seed of this.options.scope.seeds) this.enqueue(new URL(seed));
    await this.seedFromSitemaps();
    // Settle every worker and every download before the caller closes the browser and
    // deletes the work dir: nothing of this crawl may run (or report progress) after it.
    await Promise.allSettled(Array.from({ length: this.options.concurrency }, () => this.worker()));
    await this.deps.assets?.drain().catch((error: unknown) => this.abort(error));
    if (this.failure) throw this.failure.error;
    for (const key of this.frontier.overLimit) this.deps.state.skippedPages.set(key, `over the page limit (RENDER_MAX_PAGES=${this.options.maxPages})`);
  }

  private enqueue(url: URL): void {
    if (!inScope(url, this.options.scope)) return;
    const file = looksLikeFile(url);
    if (file && this.options.mode === 'index') return;
    this.frontier.add(url, file);
  }

  private abort(error: unknown): void {
    this.failure ??= { error };
  }

  /** Checked by every worker and retry loop; a download over the byte budget fails the crawl too. */
  private get aborted(): boolean {
    if (!this.failure && this.deps.assets?.fatalError) this.abort(this.deps.assets.fatalError);
    return this.failure !== undefined;
  }

  private async worker(): Promise<void> {
    while (!this.aborted) {
      const entry = this.frontier.next();
      if (!entry) {
        if (this.active === 0) return;
        await sleep(20); // another worker may still discover links
        continue;
      }
      this.active++;
      try {
        await this.visit(entry);
      } catch (error) {
        this.abort(error);
      } finally {
        this.active--;
        this.done++;
        if (!this.aborted) this.deps.onProgress(this.done, this.frontier.size + this.active);
      }
    }
  }

  private async visit(entry: FrontierEntry): Promise<void> {
    const url = new URL(entry.url);
    if (looksLikeFile(url)) {
      await this.deps.assets?.ensure(url.href);
      return;
    }
    const key = pageKey(url);
    let load: PageLoad | undefined;
    for (let attempt = 0; ; attempt++) {
      if (this.aborted) return;
      try {
        load = await this.deps.renderer.render(url.href, {
          mode: this.options.mode,
          tokenPrefix: this.options.tokenPrefix,
          policy: DOM_POLICY,
          wantResource: (u) => this.options.mode === 'export' && (this.deps.assets?.wants(u) ?? false),
          removeScripts: shouldRemoveScripts,
        });
        const transient = load.status === 0 || load.status >= 500 || load.status === 429;
        if (!transient || attempt >= this.options.retries) break;
        this.deps.log.warn('page answered with a transient error; retrying', { url: url.href, status: load.status, attempt: attempt + 1 });
      } catch (error) {
        if (error instanceof PageRenderError && error.reason === 'not-html') {
          await this.deps.assets?.ensure(url.href);
          return;
        }
        const retriable = !(error instanceof PageRenderError) || error.retriable;
        if (!retriable || attempt >= this.options.retries) {
          this.deps.state.failedPages.set(key, `${error instanceof Error ? error.message : String(error)} (after ${attempt + 1} attempt${attempt === 0 ? '' : 's'})`);
          this.deps.log.warn('page failed', { url: url.href, attempts: attempt + 1, error: error instanceof Error ? error.message : String(error) });
          return;
        }
        this.deps.log.warn('page render failed; retrying', { url: url.href, attempt: attempt + 1, error: error instanceof Error ? error.message : String(error) });
      }
      await sleep(500 * 2 ** attempt);
    }
    if (this.aborted) return;
    if (load.status >= 400 || load.status === 0) {
      this.deps.state.failedPages.set(key, `HTTP ${load.status}`);
      return;
    }
    const finalUrl = new URL(load.finalUrl);
    const finalKey = pageKey(finalUrl);
    if (finalKey !== key) {
      if (!inScope(finalUrl, this.options.scope)) {
        this.deps.state.redirectsOut.set(key, finalUrl.href);
        this.deps.state.skippedPages.set(key, `redirects outside the export scope to ${finalUrl.href}`);
        return;
      }
      this.deps.state.aliases.set(key, finalKey);
      // The target may have been (or be about to be) rendered under its own URL.
      if (!this.frontier.markSeen(finalKey)) return;
    }
    if (!load.snapshot) {
      await this.deps.assets?.ensure(finalUrl.href);
      return;
    }
    this.deps.assets?.offer(load.resources);
    await this.acceptPage(normalizePageUrl(finalUrl), finalKey, load.snapshot);
  }

  private async acceptPage(url: URL, key: string, snapshot: PageSnapshot): Promise<void> {
    const assetWork: Array<Promise<void>> = [];
    for (const ref of snapshot.references) this.followReference(ref, snapshot.baseUrl, assetWork);
    for (const link of snapshot.liveLinks ?? []) this.followReference(link, snapshot.baseUrl, assetWork);
    const pagePath = this.deps.allocator.claim(pageLocalPath(url));
    const sections = buildSections(snapshot.blocks, {
      path: url.pathname,
      title: snapshot.title,
      ...(snapshot.lang ? { lang: snapshot.lang } : {}),
      tags: parseTags(snapshot.tagDeclarations),
    });
    let spoolFile: string | undefined;
    if (snapshot.html !== undefined) {
      spoolFile = path.join(this.options.spoolDir, 'pages', `${this.spooled++}.json`);
      const body = JSON.stringify({ url: url.href, baseUrl: snapshot.baseUrl, html: snapshot.html, references: snapshot.references });
      this.deps.budget.charge(Buffer.byteLength(snapshot.html));
      await mkdir(path.dirname(spoolFile), { recursive: true });
      await writeFile(spoolFile, body);
    }
    this.deps.state.addPage(key, {
      url: url.href, path: pagePath, title: snapshot.title, ids: new Set(snapshot.ids), sections,
      scriptsRemoved: snapshot.scriptsRemoved, ...(spoolFile ? { spoolFile } : {}),
    });
    await Promise.all(assetWork);
  }

  /** Queues linked pages and starts downloading what the page loads. */
  private followReference(ref: PageLink, baseUrl: string, assetWork: Array<Promise<void>>): void {
    const asset = (value: string): void => {
      const url = resolveUrl(value, baseUrl);
      if (!url || !isHttpUrl(url) || !this.deps.assets) return;
      url.hash = '';
      assetWork.push(this.deps.assets.ensure(url.href));
    };
    switch (ref.kind) {
      case 'link':
      case 'frame': {
        const url = resolveUrl(ref.value, baseUrl);
        if (url && isHttpUrl(url)) this.enqueue(url);
        return;
      }
      case 'meta-refresh': {
        const target = /url\s*=\s*['"]?([^'"]+)/i.exec(ref.value)?.[1];
        const url = target ? resolveUrl(target, baseUrl) : undefined;
        if (url && isHttpUrl(url)) this.enqueue(url);
        return;
      }
      case 'asset':
        asset(ref.value);
        return;
      case 'srcset':
        for (const c of parseSrcset(ref.value)) asset(c.url);
        return;
      case 'style-attr':
      case 'style-element':
        for (const r of findCssReferences(ref.value)) if (!r.url.startsWith('#')) asset(r.url);
        return;
    }
  }

  private async seedFromSitemaps(): Promise<void> {
    const origin = this.options.scope.origin;
    const queue = new Set<string>([`${origin}/sitemap.xml`]);
    for (const prefix of this.options.scope.prefixes) if (prefix !== '/' && prefix.endsWith('/')) queue.add(`${origin}${prefix}sitemap.xml`);
    try {
      const robots = await this.deps.fetcher.get(`${origin}/robots.txt`, 1024 * 1024);
      for (const s of sitemapsFromRobots(robots.body.toString('utf8'), robots.url)) queue.add(s);
    } catch {
      // no robots.txt is normal
    }
    const visited = new Set<string>();
    let seeded = 0;
    for (const sitemap of queue) {
      if (visited.size >= MAX_SITEMAPS) break;
      visited.add(sitemap);
      try {
        const fetched = await this.deps.fetcher.get(sitemap, SITEMAP_BYTES);
        const body = fetched.body[0] === 0x1f && fetched.body[1] === 0x8b ? gunzipSync(fetched.body, { maxOutputLength: SITEMAP_BYTES }) : fetched.body;
        const parsed = parseSitemap(body.toString('utf8'), fetched.url);
        for (const loc of parsed.locations) {
          if (parsed.kind === 'sitemapindex') queue.add(loc);
          else {
            this.enqueue(new URL(loc));
            seeded++;
          }
        }
      } catch {
        // sitemaps are optional; a missing or broken one only means fewer seeds
      }
    }
    if (seeded > 0) this.deps.log.info('seeded from sitemaps', { urls: seeded, sitemaps: visited.size });
  }
}
