// The definition of self-contained, as a check: open every exported page with every
// request outside the export aborted and counted, and verify every link and fragment.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';

export interface ReplayReport {
  pages: number;
  externalRequests: string[];
  failedRequests: string[];
  brokenLinks: string[];
  checkedLinks: number;
}

/** Maps a URL under `base` to a file of `dir`, or undefined when it is outside. */
function fileFor(url: string, base: string, dir: string): string | undefined {
  if (!url.startsWith(base)) return undefined;
  const relative = decodeURIComponent(new URL(url).pathname).slice(decodeURIComponent(new URL(base).pathname).length);
  return path.join(dir, relative);
}

const idCache = new Map<string, Set<string>>();
async function idsOf(file: string): Promise<Set<string>> {
  let ids = idCache.get(file);
  if (!ids) {
    const html = await readFile(file, 'utf8');
    const decode = (v: string): string => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    ids = new Set([...html.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((m) => decode(m[1]!)));
    idCache.set(file, ids);
  }
  return ids;
}

export async function replayExport(browser: Browser, dir: string, base: string, pages: readonly string[]): Promise<ReplayReport> {
  const report: ReplayReport = { pages: 0, externalRequests: [], failedRequests: [], brokenLinks: [], checkedLinks: 0 };
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(base) || url.startsWith('data:')) return route.continue();
    report.externalRequests.push(url);
    return route.abort('blockedbyclient');
  });
  let inflight = 0;
  let lastActivity = Date.now();
  page.on('request', () => { inflight++; lastActivity = Date.now(); });
  const settled = (): void => { inflight = Math.max(0, inflight - 1); lastActivity = Date.now(); };
  page.on('requestfinished', settled);
  page.on('requestfailed', settled);
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_BLOCKED_BY_CLIENT') report.failedRequests.push(`${r.url()} ${r.failure()?.errorText ?? ''}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) report.failedRequests.push(`${r.url()} HTTP ${r.status()}`);
  });
  try {
    for (const file of pages) {
      const url = base + file.split('/').map(encodeURIComponent).join('/');
      await page.goto(url, { waitUntil: 'load' });
      // Every request the page makes must finish (or fail) before the next navigation aborts it.
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && (inflight > 0 || Date.now() - lastActivity < 150)) await page.waitForTimeout(25);
      report.pages++;
      const links = await page.evaluate<string[]>(
        "Array.from(document.querySelectorAll('a[href], area[href], iframe[src], link[href]')).map((e) => e.href || e.src)");
      for (const link of links) {
        if (!link.startsWith('file:') && !link.startsWith(base)) {
          if (link.startsWith(new URL(base).origin)) report.brokenLinks.push(`${file}: ${link} (outside the export root)`);
          continue;
        }
        report.checkedLinks++;
        const target = fileFor(link, base, dir);
        if (!target) {
          report.brokenLinks.push(`${file}: ${link} (outside the export root)`);
          continue;
        }
        const info = await stat(target).catch(() => undefined);
        if (!info?.isFile()) {
          report.brokenLinks.push(`${file}: ${link} (${info ? 'a directory' : 'no such file'})`);
          continue;
        }
        const hash = new URL(link).hash;
        if (hash.length > 1 && /\.html?$/.test(target)) {
          const fragment = decodeURIComponent(hash.slice(1));
          if (!(await idsOf(target)).has(fragment)) report.brokenLinks.push(`${file}: ${link} (no #${fragment})`);
        }
      }
    }
  } finally {
    await context.close();
  }
  return report;
}

/** What a reader sees: innerText, whitespace-collapsed, without the export's search box. */
export async function visibleText(page: Page): Promise<string> {
  const text = await page.evaluate<string>("document.getElementById('docport-search')?.remove(), document.body.innerText");
  return text.replace(/\s+/g, ' ').trim();
}

export function fileBase(dir: string): string {
  return `file://${dir.endsWith('/') ? dir : `${dir}/`}`;
}

export { fileURLToPath };
