import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AssetStore } from '../assets/asset-store.js';
import type { PageReference } from '../browser-port.js';
import type { CrawlState } from '../crawl/crawl-state.js';
import { applyReferences, injectBeforeBodyEnd } from '../rewrite/finalize-html.js';
import { rewriteManifest } from '../assets/web-manifest.js';
import { rewriteAsset, rewriteStyle, type ReferenceIssue, type RewriteContext } from '../rewrite/resolve-reference.js';
import { inlineSpriteUses, spriteMarkup } from '../rewrite/svg-sprites.js';
import { buildOfflineIndex, offlineIndexScript } from '../search/offline-index.js';
import { SEARCH_INDEX_FILE, SEARCH_SCRIPT_FILE, searchWidgetMarkup, searchWidgetScript } from '../search/widget.js';
import { assertSafeRelativePath, rootPrefix } from '../url/local-path.js';
import type { ExportManifest } from './manifest.js';

export interface WrittenTree {
  pages: ExportManifest['pages'];
  assets: ExportManifest['assets'];
  brokenReferences: ExportManifest['brokenReferences'];
  /** Every file written, relative to the root, sorted. */
  files: string[];
  bytes: number;
}

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/**
 * Writes the final file tree: pages with every reference rewritten and the search box
 * injected, stylesheets rewritten relative to themselves, other assets as stored, and
 * the offline search files. Runs once the crawl is over, when every target is known.
 */
export async function writeExportTree(outDir: string, state: CrawlState, assets: AssetStore, tokenPrefix: string): Promise<WrittenTree> {
  const root = path.resolve(outDir);
  const files: string[] = [];
  let bytes = 0;
  const write = async (relative: string, data: Buffer | string): Promise<{ sizeBytes: number; sha256: string }> => {
    assertSafeRelativePath(relative);
    const target = path.resolve(root, relative);
    if (!target.startsWith(root + path.sep)) throw new Error(`export path escapes the root: ${relative}`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, data);
    files.push(relative);
    const sizeBytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    bytes += sizeBytes;
    return { sizeBytes, sha256: sha256(data) };
  };

  const assetsByPath = new Map(assets.assets().map((a) => [a.path, a]));
  const pages: WrittenTree['pages'] = [];
  const brokenReferences: WrittenTree['brokenReferences'] = [];
  for (const page of state.pages.values()) {
    if (!page.spoolFile) continue;
    const spooled = JSON.parse(await readFile(page.spoolFile, 'utf8')) as { baseUrl: string; html: string; references: PageReference[] };
    const issues: ReferenceIssue[] = [];
    const ctx: RewriteContext = { filePath: page.path, baseUrl: spooled.baseUrl, index: state, issues };
    const { references, sprites } = inlineSpriteUses(spooled.references, spooled.baseUrl, state);
    let extra = '';
    for (const sprite of sprites) {
      const asset = assetsByPath.get(sprite);
      if (asset) extra += spriteMarkup((await assets.readBlob(asset)).toString('utf8'));
    }
    const html = injectBeforeBodyEnd(applyReferences(spooled.html, tokenPrefix, references, ctx), extra + searchWidgetMarkup(rootPrefix(page.path)));
    const facts = await write(page.path, html);
    pages.push({ url: page.url, path: page.path, title: page.title, ...facts, scriptsRemoved: page.scriptsRemoved });
    const seen = new Set<string>();
    for (const issue of issues) {
      if (seen.has(issue.url)) continue;
      seen.add(issue.url);
      brokenReferences.push({ page: page.path, ...issue });
    }
  }

  const assetEntries: WrittenTree['assets'] = [];
  for (const asset of assets.assets()) {
    const body = await assets.readBlob(asset);
    const ctx: RewriteContext = { filePath: asset.path, baseUrl: asset.url, index: state, issues: [] };
    const data = asset.css ? rewriteStyle(body.toString('utf8'), ctx)
      : asset.manifest ? rewriteManifest(body.toString('utf8'), (src) => rewriteAsset(src, ctx))
      : body;
    const facts = await write(asset.path, data);
    assetEntries.push({
      url: asset.url, path: asset.path, ...facts,
      ...(asset.aliases.length > 0 ? { aliases: [...asset.aliases] } : {}),
      ...(asset.contentType ? { contentType: asset.contentType } : {}),
    });
  }

  const index = buildOfflineIndex([...state.pages.values()].flatMap((p) => p.sections.map((section) => ({ section, file: p.path }))));
  await write(SEARCH_INDEX_FILE, offlineIndexScript(index));
  await write(SEARCH_SCRIPT_FILE, searchWidgetScript());
  return { pages, assets: assetEntries, brokenReferences, files: files.sort(), bytes };
}
