import { chromium, type Browser, type BrowserContext, type Page, type Request, type Response } from 'playwright';
import type { Logger } from '../../observability/logger.js';
import {
  PageRenderError, type CapturedResource, type PageLoad, type PageRenderer, type RenderOptions,
} from '../../renderer/browser-port.js';
import { countModuleScripts, snapshotPage, waitForFonts, type InPageArgs } from './page-script.js';

export interface ChromiumPoolOptions {
  executablePath: string;
  args: readonly string[];
  /** http://host:port of the egress proxy every browser request must go through. */
  proxyServer?: string;
  /** Pages kept warm and rendered in parallel. */
  size: number;
  timeoutMs: number;
  /** Network quiet period after load before the DOM is read. */
  quietMs: number;
  log: Logger;
}

const RUNTIME_TYPES = new Set(['fetch', 'xhr', 'eventsource', 'websocket']);
const KEPT_TYPES = new Set(['stylesheet', 'image', 'font', 'script', 'media', 'manifest', 'texttrack', 'other']);

interface PooledPage {
  page: Page;
  generation: number;
  broken: boolean;
}

/**
 * A warm pool of pages in one Chromium (a new page or context per document is several
 * times slower). A browser that dies is relaunched on the next lease, and the page that
 * was rendering fails with a retriable 'crash' error; a page that crashes or hangs is
 * replaced.
 */
export class ChromiumPagePool implements PageRenderer {
  private browser: Browser | undefined;
  private context: BrowserContext | undefined;
  private launching: Promise<BrowserContext> | undefined;
  private generation = 0;
  private readonly idle: PooledPage[] = [];
  private readonly waiters: Array<(p: PooledPage) => void> = [];
  private open = 0;
  private closed = false;
  /** Times the browser was (re)launched, for logs and tests. */
  launches = 0;

  constructor(private readonly options: ChromiumPoolOptions) {}

  async render(url: string, options: RenderOptions): Promise<PageLoad> {
    const leased = await this.lease();
    try {
      return await this.renderOn(leased, url, options);
    } catch (error) {
      if (!(error instanceof PageRenderError)) {
        leased.broken = true;
        const crashed = !this.browser?.isConnected() || leased.page.isClosed();
        throw new PageRenderError(`${crashed ? 'browser or page crashed' : 'render failed'}: ${firstLine(error)}`, crashed ? 'crash' : 'navigation', true);
      }
      if (error.reason === 'timeout' || error.reason === 'crash') leased.broken = true;
      throw error;
    } finally {
      this.release(leased);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    // A launch under way finishes first (and sees `closed`), so no browser outlives the pool.
    await this.launching?.catch(() => undefined);
    const browser = this.browser;
    this.browser = undefined;
    this.context = undefined;
    await browser?.close().catch(() => undefined);
  }

  private async renderOn(leased: PooledPage, url: string, options: RenderOptions): Promise<PageLoad> {
    const { page } = leased;
    const deadline = Date.now() + this.options.timeoutMs;
    let inflight = 0;
    let lastActivity = Date.now();
    let runtimeRequests = 0;
    let crashed = false;
    const captures: Array<Promise<CapturedResource | undefined>> = [];
    const onRequest = (request: Request): void => {
      inflight++;
      lastActivity = Date.now();
      if (RUNTIME_TYPES.has(request.resourceType())) runtimeRequests++;
    };
    const onDone = (): void => {
      inflight = Math.max(0, inflight - 1);
      lastActivity = Date.now();
    };
    const onResponse = (response: Response): void => {
      const request = response.request();
      const status = response.status();
      if (request.method() !== 'GET' || status < 200 || status >= 300 || !KEPT_TYPES.has(request.resourceType())) return;
      if (request.frame() !== page.mainFrame() && request.resourceType() === 'document') return;
      const resourceUrl = response.url();
      if (!options.wantResource(resourceUrl)) return;
      const contentType = response.headers()['content-type'];
      captures.push(response.body().then(
        (body) => ({ url: resourceUrl, status, body, ...(contentType ? { contentType } : {}) }),
        () => undefined, // bodies of evicted or aborted responses are fetched again by the asset store
      ));
    };
    const onWebSocket = (): void => void runtimeRequests++;
    const onCrash = (): void => void (crashed = true);
    page.on('request', onRequest);
    page.on('requestfinished', onDone);
    page.on('requestfailed', onDone);
    page.on('response', onResponse);
    page.on('websocket', onWebSocket);
    page.on('crash', onCrash);
    try {
      let response: Response | null;
      try {
        response = await page.goto(url, { waitUntil: 'load', timeout: this.options.timeoutMs });
      } catch (error) {
        const message = firstLine(error);
        if (/Download is starting/i.test(message)) throw new PageRenderError(`not an HTML page (download): ${url}`, 'not-html', false);
        if (/Timeout/i.test(message)) throw new PageRenderError(`timed out after ${this.options.timeoutMs} ms loading ${url}`, 'timeout', true);
        if (crashed) throw new PageRenderError(`page crashed loading ${url}`, 'crash', true);
        if (/net::ERR_(TUNNEL|PROXY|CONNECTION_REFUSED|NAME_NOT_RESOLVED|ADDRESS_UNREACHABLE|BLOCKED)/.test(message)) {
          throw new PageRenderError(`cannot load ${url}: ${message}`, 'navigation', false);
        }
        throw error;
      }
      const finalUrl = page.url();
      const status = response?.status() ?? 0;
      const contentType = response?.headers()['content-type'];
      const base = { finalUrl, status, ...(contentType ? { contentType } : {}) };
      if (status >= 400 || (contentType !== undefined && !/html/i.test(contentType))) return { ...base, resources: [] };

      await withDeadline(page.evaluate(waitForFonts), deadline, 'fonts').catch(() => undefined);
      while (Date.now() < deadline) {
        if (crashed) throw new PageRenderError(`page crashed rendering ${url}`, 'crash', true);
        if (inflight === 0 && Date.now() - lastActivity >= this.options.quietMs) break;
        await new Promise((r) => setTimeout(r, Math.max(20, Math.min(100, this.options.quietMs / 3))));
      }
      const moduleScripts = await withDeadline(page.evaluate(countModuleScripts), deadline, 'module script count');
      const removeScripts = options.removeScripts({ runtimeRequests, moduleScripts });
      // Kept scripts re-run in the export: give them the document as served, not their own output.
      const sourceHtml = options.mode === 'export' && !removeScripts && response ? decodeHtml(await response.body(), contentType) : undefined;
      const args: InPageArgs = { mode: options.mode, tokenPrefix: options.tokenPrefix, policy: options.policy, removeScripts, ...(sourceHtml !== undefined ? { sourceHtml } : {}) };
      const snapshot = await withDeadline(page.evaluate(snapshotPage, args), deadline, 'DOM snapshot');
      const resources = (await Promise.all(captures)).filter((r): r is CapturedResource => r !== undefined);
      return { ...base, resources, snapshot: { ...snapshot, scriptsRemoved: removeScripts && options.mode === 'export' } };
    } finally {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
      page.off('response', onResponse);
      page.off('websocket', onWebSocket);
      page.off('crash', onCrash);
    }
  }

  private async lease(): Promise<PooledPage> {
    if (this.closed) throw new PageRenderError('page pool is closed', 'crash', false);
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.open < this.options.size) {
      this.open++;
      try {
        const context = await this.ensureContext();
        return { page: await context.newPage(), generation: this.generation, broken: false };
      } catch (error) {
        this.open--;
        if (error instanceof PageRenderError) throw error;
        throw new PageRenderError(`cannot start Chromium: ${firstLine(error)}`, 'crash', true);
      }
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(leased: PooledPage): void {
    const stale = leased.broken || leased.generation !== this.generation || leased.page.isClosed() || !this.browser?.isConnected();
    if (stale) {
      this.open--;
      void leased.page.close().catch(() => undefined);
      // Someone waiting gets a fresh page (and, if needed, a fresh browser).
      const waiter = this.waiters.shift();
      if (waiter) {
        this.open++;
        this.ensureContext().then((c) => c.newPage()).then(
          (page) => waiter({ page, generation: this.generation, broken: false }),
          () => {
            this.open--;
            waiter({ page: leased.page, generation: -1, broken: true });
          },
        );
      }
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter(leased);
    else this.idle.push(leased);
  }

  private ensureContext(): Promise<BrowserContext> {
    if (this.closed) return Promise.reject(new PageRenderError('page pool is closed', 'crash', false));
    if (this.context && this.browser?.isConnected()) return Promise.resolve(this.context);
    this.launching ??= this.launch().finally(() => (this.launching = undefined));
    return this.launching;
  }

  private async launch(): Promise<BrowserContext> {
    const old = this.browser;
    this.browser = undefined;
    this.context = undefined;
    this.idle.length = 0;
    this.generation++;
    await old?.close().catch(() => undefined);
    const proxyArgs = this.options.proxyServer ? [`--proxy-server=${this.options.proxyServer}`, '--proxy-bypass-list=<-loopback>'] : [];
    const browser = await chromium.launch({ executablePath: this.options.executablePath, args: [...this.options.args, ...proxyArgs] });
    if (this.closed) {
      await browser.close().catch(() => undefined);
      throw new PageRenderError('page pool is closed', 'crash', false);
    }
    this.launches++;
    if (this.launches > 1) this.options.log.warn('Chromium relaunched after a crash', { launches: this.launches });
    browser.on('disconnected', () => {
      if (this.browser === browser) {
        this.browser = undefined;
        this.context = undefined;
      }
    });
    let context: BrowserContext;
    try {
      context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false, bypassCSP: true, ignoreHTTPSErrors: false });
    } catch (error) {
      await browser.close().catch(() => undefined);
      throw error;
    }
    this.browser = browser;
    this.context = context;
    return context;
  }
}

/** Decodes a served HTML body by its declared charset (header, then <meta>), UTF-8 by default. */
export function decodeHtml(body: Buffer, contentType: string | undefined): string {
  const declared = /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1]
    ?? /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 500);
}

async function withDeadline<T>(promise: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageRenderError(`timed out waiting for ${what}`, 'timeout', true)), Math.max(1, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
