import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../observability/logger.js';
import type { CapturedResource } from '../browser-port.js';
import { findCssReferences } from '../css/css-references.js';
import { isWebManifest, manifestImageUrls } from './web-manifest.js';
import { FetchError, type HttpFetcher } from '../net/http-fetcher.js';
import type { HostPolicy } from '../net/host-policy.js';
import type { Target } from '../rewrite/resolve-reference.js';
import { assetLocalPath, mediaType } from '../url/local-path.js';
import type { PathAllocator } from '../url/path-allocator.js';
import { isHttpUrl, resolveUrl } from '../url/scope.js';
import { type ByteBudget, ExportTooLargeError, Semaphore } from './limits.js';

/** One stored file that is not a page: a resource pages load, or a non-HTML link target. */
export interface StoredAsset {
  /** URL it was fetched from (after redirects). */
  url: string;
  /** Other URLs whose content is the same file (redirects, query variants, duplicates). */
  aliases: string[];
  path: string;
  contentType?: string;
  sha256: string;
  sizeBytes: number;
  /** Stylesheets are rewritten at the end, relative to their own URL. */
  css: boolean;
  /** Web app manifests get their image URLs rewritten the same way. */
  manifest: boolean;
  blob: string;
}

export interface UrlProblem {
  url: string;
  reason: string;
}

const isCss = (contentType: string | undefined, url: string): boolean =>
  mediaType(contentType) === 'text/css' || (contentType === undefined && /\.css$/i.test(new URL(url).pathname));

/**
 * Downloads, deduplicates (by content hash) and spools every resource of the export.
 * Bodies the browser already loaded are taken from it; the rest is fetched from Node
 * under the same policy. Stylesheets are parsed for url()/@import/image-set and their
 * references fetched too. `drain()` waits for everything started so far.
 */
export class AssetStore {
  private readonly byUrl = new Map<string, StoredAsset>();
  private readonly byHash = new Map<string, StoredAsset>();
  private readonly offered = new Map<string, CapturedResource>();
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly skippedUrls = new Map<string, string>();
  private readonly failedUrls = new Map<string, string>();
  private readonly fetches = new Semaphore(8);
  private fatal: Error | undefined;

  constructor(private readonly deps: {
    fetcher: HttpFetcher;
    policy: HostPolicy;
    originOrigin: string;
    allocator: PathAllocator;
    budget: ByteBudget;
    maxAssetBytes: number;
    spoolDir: string;
    log: Logger;
  }) {}

  /** Whether the browser should hand over the body of this response. */
  wants(url: string): boolean {
    return !this.byUrl.has(url) && !this.inflight.has(url) && this.deps.policy.refusal(url) === undefined;
  }

  /** Bodies the browser loaded; stored (they are what the page actually uses) when not yet known. */
  offer(resources: readonly CapturedResource[]): void {
    for (const r of resources) {
      if (r.body.length > this.deps.maxAssetBytes || this.byUrl.has(r.url)) continue;
      this.offered.set(r.url, r);
      void this.ensure(r.url);
    }
  }

  /** Starts storing `url` (idempotent); failures are recorded, never thrown. */
  ensure(url: string): Promise<void> {
    const key = url.replace(/#.*$/, '');
    if (this.byUrl.has(key) || this.skippedUrls.has(key) || this.failedUrls.has(key)) return Promise.resolve();
    let running = this.inflight.get(key);
    if (!running) {
      running = this.store(key).catch((error: unknown) => {
        if (error instanceof ExportTooLargeError) this.fatal ??= error;
        else if (error instanceof FetchError && (error.reason === 'refused' || error.reason === 'too-large')) this.skippedUrls.set(key, error.message);
        else this.failedUrls.set(key, error instanceof Error ? error.message : String(error));
      }).finally(() => this.inflight.delete(key));
      this.inflight.set(key, running);
    }
    return running;
  }

  /** Waits until nothing is in flight (stylesheets may start more while we wait). */
  async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight.values()]);
    if (this.fatal) throw this.fatal;
  }

  /** The error that fails the export (RENDER_MAX_EXPORT_BYTES), once one happened. */
  get fatalError(): Error | undefined {
    return this.fatal;
  }

  target(url: string): Target | undefined {
    const stored = this.byUrl.get(url);
    if (stored) return { kind: 'local', path: stored.path };
    const reason = this.skippedUrls.get(url) ?? this.failedUrls.get(url);
    return reason === undefined ? undefined : { kind: 'drop', reason };
  }

  /** Unique stored files, in the order they were stored. */
  assets(): StoredAsset[] {
    return [...this.byHash.values()].concat([...new Set(this.byUrl.values())].filter((a) => a.css || a.manifest));
  }

  skipped(): UrlProblem[] {
    return [...this.skippedUrls].map(([url, reason]) => ({ url, reason }));
  }

  failed(): UrlProblem[] {
    return [...this.failedUrls].map(([url, reason]) => ({ url, reason }));
  }

  readBlob(asset: StoredAsset): Promise<Buffer> {
    return readFile(asset.blob);
  }

  private async store(url: string): Promise<void> {
    const offered = this.offered.get(url);
    this.offered.delete(url);
    const resource = offered ?? await this.fetches.run(() => this.deps.fetcher.get(url, this.deps.maxAssetBytes));
    const finalUrl = resource.url;
    const already = this.byUrl.get(finalUrl);
    if (already) {
      this.alias(already, url);
      return;
    }
    const css = isCss(resource.contentType, finalUrl);
    const manifest = !css && isWebManifest(resource.contentType, finalUrl);
    const sha256 = createHash('sha256').update(resource.body).digest('hex');
    const duplicate = css || manifest ? undefined : this.byHash.get(sha256);
    if (duplicate) {
      // Same bytes under another URL: one file, every URL points at it.
      this.alias(duplicate, url);
      this.alias(duplicate, finalUrl);
      return;
    }
    this.deps.budget.charge(resource.body.length);
    const asset: StoredAsset = {
      url: finalUrl,
      aliases: [],
      path: this.deps.allocator.claim(assetLocalPath(new URL(finalUrl), this.deps.originOrigin, resource.contentType)),
      ...(resource.contentType ? { contentType: resource.contentType } : {}),
      sha256,
      sizeBytes: resource.body.length,
      css,
      manifest,
      blob: path.join(this.deps.spoolDir, 'blobs', css || manifest ? `${sha256}-${this.byUrl.size}` : sha256),
    };
    // Registered before the first await, so a concurrent store of the same bytes sees it.
    this.byUrl.set(finalUrl, asset);
    if (url !== finalUrl) this.alias(asset, url);
    if (!css && !manifest) this.byHash.set(sha256, asset);
    await mkdir(path.dirname(asset.blob), { recursive: true });
    await writeFile(asset.blob, resource.body);
    if (css) this.followStylesheet(resource.body.toString('utf8'), finalUrl);
    else if (manifest) this.follow(manifestImageUrls(resource.body.toString('utf8')), finalUrl);
  }

  private alias(asset: StoredAsset, url: string): void {
    if (url === asset.url || this.byUrl.get(url) === asset) return;
    this.byUrl.set(url, asset);
    asset.aliases.push(url);
  }

  private followStylesheet(css: string, base: string): void {
    this.follow(findCssReferences(css).map((r) => r.url), base);
  }

  private follow(values: readonly string[], base: string): void {
    for (const value of values) {
      if (value.startsWith('#')) continue;
      const url = resolveUrl(value, base);
      if (!url || !isHttpUrl(url)) continue;
      url.hash = '';
      const refusal = this.deps.policy.refusal(url);
      if (refusal) this.skippedUrls.set(url.href, refusal);
      else void this.ensure(url.href);
    }
  }
}
