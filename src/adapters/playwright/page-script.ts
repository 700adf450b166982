// Functions that run inside the page (Playwright serializes them with toString()):
// they must be self-contained, with no imports and no references outside their body.
import type { DomPolicy } from '../../renderer/html/dom-policy.js';
import type { PageLink, PageReference, PageSnapshot, TextBlock } from '../../renderer/browser-port.js';
import type { DomDocument, DomElement, DomNode, DomParent } from './dom-subset.js';

// Module-scoped: only these functions, which run in the page, see them.
declare const document: DomDocument;
declare class DOMParser {
  parseFromString(html: string, type: 'text/html'): DomDocument;
}

export interface InPageArgs {
  mode: 'export' | 'index';
  tokenPrefix: string;
  policy: DomPolicy;
  removeScripts: boolean;
  /**
   * The document as served. When given (scripts are kept), it is what gets exported, so
   * the kept scripts do not run a second time over their own output.
   */
  sourceHtml?: string;
}

/** What the in-page script returns: the snapshot, less what the adapter decides afterwards. */
export type InPageResult = Omit<PageSnapshot, 'scriptsRemoved'>;

export function waitForFonts(): Promise<void> {
  return document.fonts.ready.then(() => undefined);
}

export function countModuleScripts(): number {
  return document.querySelectorAll('script[type="module" i]').length;
}

export function snapshotPage(args: InPageArgs): InPageResult {
  const { policy } = args;
  const collapse = (text: string): string => text.replace(/\s+/g, ' ');
  const BLOCK = /^(P|DIV|LI|UL|OL|TABLE|TR|TD|TH|PRE|BLOCKQUOTE|DL|DT|DD|SECTION|ARTICLE|HEADER|FOOTER|FIGURE|FIGCAPTION|BR|HR|ASIDE|MAIN|DETAILS|SUMMARY)$/;

  // --- text blocks for search sections, from the live DOM ---
  const textOf = (el: DomElement): string => {
    let out = '';
    const walk = (node: DomNode): void => {
      for (const child of Array.from(node.childNodes)) {
        if (child.nodeType === 3) out += child.nodeValue ?? '';
        else if (child.nodeType === 1) {
          const e = child as DomElement;
          if (e.matches(policy.sectionSkipSelector) || e.id === policy.searchWidgetId) continue;
          const block = BLOCK.test(e.tagName);
          if (block) out += ' ';
          walk(e);
          if (block) out += ' ';
        }
      }
    };
    walk(el);
    return collapse(out);
  };
  const anchorOf = (h: DomElement): string | undefined => {
    if (h.id) return h.id;
    const parent = h.parentElement;
    if (parent && parent.firstElementChild === h && parent.id && parent !== document.body) return parent.id;
    const inner = h.querySelector('[id]');
    if (inner?.id) return inner.id;
    const named = h.querySelector('a[name]')?.getAttribute('name');
    if (named) return named;
    const self = h.querySelector('a[href^="#"]')?.getAttribute('href');
    if (self && self.length > 1) return decodeURIComponent(self.slice(1));
    const prev = h.previousElementSibling;
    if (prev && prev.tagName === 'A' && (prev.id || prev.getAttribute('name')) && !prev.textContent?.trim()) return prev.id || prev.getAttribute('name') || undefined;
    return undefined;
  };
  const blocks: TextBlock[] = [];
  let current: TextBlock = { text: '' };
  const mainRoot = policy.mainContentSelectors.map((s) => document.querySelector(s)).find((e) => e !== null) ?? document.body;
  const walkSections = (node: DomNode): void => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) {
        current.text += child.nodeValue ?? '';
      } else if (child.nodeType === 1) {
        const e = child as DomElement;
        if (e.matches(policy.sectionSkipSelector) || e.id === policy.searchWidgetId) continue;
        const heading = /^H([1-6])$/.exec(e.tagName);
        if (heading) {
          current.text = collapse(current.text);
          blocks.push(current);
          const anchor = anchorOf(e);
          current = { heading: { level: Number(heading[1]), text: textOf(e), ...(anchor ? { anchor } : {}) }, text: '' };
          continue;
        }
        const block = BLOCK.test(e.tagName);
        if (block) current.text += ' ';
        walkSections(e);
        if (block) current.text += ' ';
      }
    }
  };
  if (mainRoot) walkSections(mainRoot);
  current.text = collapse(current.text);
  blocks.push(current);

  const ids = new Set<string>();
  for (const e of Array.from(document.querySelectorAll('[id]'))) ids.add(e.id);
  for (const e of Array.from(document.querySelectorAll('a[name]'))) ids.add(e.getAttribute('name') ?? '');
  ids.delete('');

  const tagDeclarations: string[] = [];
  for (const m of Array.from(document.querySelectorAll('meta[name="keywords" i], meta[property="article:tag" i], meta[name="docport:tags" i]'))) {
    const content = m.getAttribute('content');
    if (content) tagDeclarations.push(content);
  }

  const result: InPageResult = {
    baseUrl: document.baseURI,
    title: document.title,
    ...(document.documentElement.lang ? { lang: document.documentElement.lang } : {}),
    tagDeclarations,
    references: [],
    ids: [...ids],
    blocks,
  };

  // --- references; in export mode on an inert copy whose URL values become tokens ---
  // The copy lives in a document without a browsing context, so changing its
  // attributes loads nothing and runs nothing.
  const exporting = args.mode === 'export';
  const source = exporting && args.sourceHtml !== undefined ? new DOMParser().parseFromString(args.sourceHtml, 'text/html') : undefined;
  const inert = source ?? document.implementation.createHTMLDocument('');
  const root = source ? source.documentElement : exporting ? inert.importNode(document.documentElement, true) : document.documentElement;
  if (exporting && !source) inert.replaceChild(root, inert.documentElement);
  const scope: DomParent = exporting ? inert : document;
  if (source) {
    for (const e of Array.from(source.querySelectorAll('[id]'))) ids.add(e.id);
    for (const e of Array.from(source.querySelectorAll('a[name]'))) ids.add(e.getAttribute('name') ?? '');
    ids.delete('');
    result.ids = [...ids];
  }

  if (exporting) {
    for (const selector of policy.removeSelectors) for (const e of Array.from(scope.querySelectorAll(selector))) e.remove();
    if (args.removeScripts) {
      for (const s of Array.from(scope.querySelectorAll('script'))) {
        const type = (s.getAttribute('type') ?? '').trim().toLowerCase();
        if (!policy.dataScriptTypes.includes(type)) s.remove();
      }
    }
    for (const link of Array.from(scope.querySelectorAll('link[rel]'))) {
      const rels = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
      const rule = policy.linkRels.find(([rel]) => rels.includes(rel));
      if (rule?.[1] === 'remove') link.remove();
    }
    for (const attribute of policy.stripAttributes) {
      for (const e of Array.from(scope.querySelectorAll(`[${attribute}]`))) e.removeAttribute(attribute);
    }
    // The export is written as UTF-8 whatever the live page declared.
    for (const m of Array.from(scope.querySelectorAll('meta[charset], meta[http-equiv="content-type" i]'))) m.remove();
    const head = scope.querySelector('head');
    if (head) {
      const meta = inert.createElement('meta');
      meta.setAttribute('charset', 'utf-8');
      head.insertBefore(meta, head.firstChild);
    }
  }

  const seen = new Map<DomElement, Set<string>>();
  const skipValue = /^\s*(javascript|mailto|tel|data|blob|about|sms|callto):/i;
  const linkKind = (e: DomElement): string => {
    const rels = (e.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    const rule = policy.linkRels.find(([rel]) => rels.includes(rel));
    return rule ? rule[1] : policy.defaultLinkKind;
  };
  const addReference = (e: DomElement, attribute: string, kind: string): void => {
    const done = seen.get(e) ?? new Set<string>();
    if (done.has(attribute)) return;
    done.add(attribute);
    seen.set(e, done);
    const node = e.getAttributeNode(attribute);
    if (!node) return;
    const value = node.value;
    if (kind === 'style-attr') {
      if (!/url\(|image-set\(/i.test(value)) return;
    } else if (kind !== 'meta-refresh') {
      const trimmed = value.trim();
      if (trimmed === '' || trimmed === '#' || skipValue.test(trimmed)) return;
      // Same-document references such as <use href="#icon"> need no rewriting.
      if (trimmed.startsWith('#') && kind !== 'link') return;
    }
    if (!exporting && kind !== 'link' && kind !== 'frame' && kind !== 'meta-refresh') return;
    const token = result.references.length;
    result.references.push({ token, kind: kind as PageReference['kind'], value, element: e.tagName.toLowerCase() });
    if (exporting) node.value = `${args.tokenPrefix}${token}-`;
  };
  for (const e of Array.from(scope.querySelectorAll('link[href]'))) addReference(e, 'href', linkKind(e));
  for (const rule of policy.urlAttributes) {
    for (const e of Array.from(scope.querySelectorAll(rule.selector))) addReference(e, rule.attribute, rule.kind);
  }
  if (source) {
    // The crawl follows the live DOM: links added by the kept scripts count too.
    const liveLinks: PageLink[] = [];
    const follow = (e: DomElement, attribute: string, kind: string): void => {
      const value = e.getAttribute(attribute);
      if (value && (kind === 'link' || kind === 'frame' || kind === 'meta-refresh')) liveLinks.push({ kind, value });
    };
    for (const e of Array.from(document.querySelectorAll('link[href]'))) follow(e, 'href', linkKind(e));
    for (const rule of policy.urlAttributes) {
      for (const e of Array.from(document.querySelectorAll(rule.selector))) follow(e, rule.attribute, rule.kind);
    }
    result.liveLinks = liveLinks;
  }
  if (exporting) {
    for (const style of Array.from(scope.querySelectorAll('style'))) {
      const text = style.textContent ?? '';
      if (!/url\(|@import|image-set\(/i.test(text)) continue;
      const token = result.references.length;
      result.references.push({ token, kind: 'style-element', value: text, element: 'style' });
      style.textContent = `${args.tokenPrefix}${token}-`;
    }
    const dt = (source ?? document).doctype;
    const doctype = dt ? `<!DOCTYPE ${dt.name}${dt.publicId ? ` PUBLIC "${dt.publicId}"` : ''}${dt.systemId ? `${dt.publicId ? '' : ' SYSTEM'} "${dt.systemId}"` : ''}>\n` : '';
    result.html = doctype + root.outerHTML;
  }
  return result;
}
