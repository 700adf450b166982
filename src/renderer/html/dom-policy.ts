/**
 * What the export does to a rendered DOM, as data handed to the browser adapter
 * (which only executes it). Decisions about each URL are made later, in Node, by
 * rewrite/resolve-reference.ts, once every page and asset of the export is known.
 */

export type ReferenceKind =
  | 'link' // navigation: a/area href, link rel=canonical/next/..., form action
  | 'frame' // iframe/frame src: a page when in scope, dropped otherwise
  | 'asset' // a resource the page loads: script/img/video/... src, stylesheet/icon/manifest href
  | 'srcset' // img/source srcset (and data-srcset)
  | 'style-attr' // style="..." (CSS with url())
  | 'style-element' // <style> text
  | 'meta-refresh'; // <meta http-equiv=refresh content="0; url=...">

export interface UrlAttributeRule {
  selector: string;
  attribute: string;
  kind: ReferenceKind;
}

export interface DomPolicy {
  urlAttributes: readonly UrlAttributeRule[];
  /** Kind of <link href> by rel token; 'remove' drops the element. First matching token wins. */
  linkRels: ReadonlyArray<readonly [string, ReferenceKind | 'remove']>;
  /** <link> elements whose rel matches nothing above. */
  defaultLinkKind: ReferenceKind;
  /** Elements removed from every page. */
  removeSelectors: readonly string[];
  /** Attributes removed from every element (they break offline copies). */
  stripAttributes: readonly string[];
  /** Script types that are data, not code: kept even when scripts are removed. */
  dataScriptTypes: readonly string[];
  /** Elements whose text never belongs to a search section. */
  sectionSkipSelector: string;
  /** Where a page's main content is, first match wins; <body> otherwise. */
  mainContentSelectors: readonly string[];
  /** Id of the offline search box the export injects (kept out of sections and text checks). */
  searchWidgetId: string;
}

export const SEARCH_WIDGET_ID = 'docport-search';

export const DOM_POLICY: DomPolicy = {
  urlAttributes: [
    { selector: 'a[href]', attribute: 'href', kind: 'link' },
    { selector: 'area[href]', attribute: 'href', kind: 'link' },
    { selector: 'form[action]', attribute: 'action', kind: 'link' },
    { selector: 'iframe[src]', attribute: 'src', kind: 'frame' },
    { selector: 'frame[src]', attribute: 'src', kind: 'frame' },
    { selector: 'script[src]', attribute: 'src', kind: 'asset' },
    { selector: 'img[src]', attribute: 'src', kind: 'asset' },
    { selector: 'img[srcset]', attribute: 'srcset', kind: 'srcset' },
    { selector: 'source[src]', attribute: 'src', kind: 'asset' },
    { selector: 'source[srcset]', attribute: 'srcset', kind: 'srcset' },
    { selector: 'video[src]', attribute: 'src', kind: 'asset' },
    { selector: 'video[poster]', attribute: 'poster', kind: 'asset' },
    { selector: 'audio[src]', attribute: 'src', kind: 'asset' },
    { selector: 'track[src]', attribute: 'src', kind: 'asset' },
    { selector: 'embed[src]', attribute: 'src', kind: 'asset' },
    { selector: 'object[data]', attribute: 'data', kind: 'asset' },
    { selector: 'input[src]', attribute: 'src', kind: 'asset' },
    { selector: 'body[background], table[background], td[background]', attribute: 'background', kind: 'asset' },
    // Lazy-loading conventions: the attributes a loader script copies into src/srcset.
    { selector: '[data-src]', attribute: 'data-src', kind: 'asset' },
    { selector: '[data-lazy-src]', attribute: 'data-lazy-src', kind: 'asset' },
    { selector: 'img[data-original]', attribute: 'data-original', kind: 'asset' },
    { selector: '[data-srcset]', attribute: 'data-srcset', kind: 'srcset' },
    { selector: '[data-lazy-srcset]', attribute: 'data-lazy-srcset', kind: 'srcset' },
    // SVG: <image>, <use> and <a> with href or the older xlink:href.
    { selector: 'svg image[href], svg use[href], svg feImage[href]', attribute: 'href', kind: 'asset' },
    { selector: 'svg image[*|href]:not([href]), svg use[*|href]:not([href])', attribute: 'xlink:href', kind: 'asset' },
    { selector: 'svg a[href]', attribute: 'href', kind: 'link' },
    { selector: 'svg a[*|href]:not([href])', attribute: 'xlink:href', kind: 'link' },
    { selector: '[style]', attribute: 'style', kind: 'style-attr' },
    { selector: 'meta[http-equiv="refresh" i][content]', attribute: 'content', kind: 'meta-refresh' },
    { selector: 'meta[name="msapplication-TileImage" i][content]', attribute: 'content', kind: 'asset' },
  ],
  linkRels: [
    ['stylesheet', 'asset'],
    ['icon', 'asset'],
    ['apple-touch-icon', 'asset'],
    ['apple-touch-icon-precomposed', 'asset'],
    ['mask-icon', 'asset'],
    ['manifest', 'asset'],
    ['preconnect', 'remove'],
    ['dns-prefetch', 'remove'],
    ['modulepreload', 'remove'],
    ['prerender', 'remove'],
    ['pingback', 'remove'],
    ['webmention', 'remove'],
    ['preload', 'asset'],
    ['prefetch', 'asset'],
  ],
  defaultLinkKind: 'link',
  removeSelectors: [
    'base',
    'meta[http-equiv="Content-Security-Policy" i]',
    'meta[http-equiv="Content-Security-Policy-Report-Only" i]',
    'meta[http-equiv="origin-trial" i]',
    // Module scripts cannot load from file:// (CORS), and nomodule ones never run in Chromium.
    'script[type="module" i]',
    'script[nomodule]',
    // Runtime data fetches cannot work offline.
    'link[rel~="preload" i][as="fetch" i]',
    'link[rel~="prefetch" i][as="fetch" i]',
    // A site rendered from an earlier export must not get two search boxes.
    `#${SEARCH_WIDGET_ID}`,
  ],
  stripAttributes: ['integrity', 'nonce', 'crossorigin', 'manifest', 'ping'],
  dataScriptTypes: ['application/ld+json', 'application/json', 'text/template', 'text/x-template', 'importmap-data', 'text/plain'],
  sectionSkipSelector: 'script, style, noscript, template, svg, nav, [role="navigation"], [aria-hidden="true"], [hidden], .headerlink, button',
  mainContentSelectors: ['main', '[role="main"]', 'article', '.document', '#content'],
  searchWidgetId: SEARCH_WIDGET_ID,
};

/**
 * Scripts are kept (menus, copy buttons, highlighting keep working) unless the page
 * fetched data at runtime or used module scripts: then its content came from those
 * scripts, the rendered DOM already holds it, and running them again offline would
 * fail or render twice.
 */
export function shouldRemoveScripts(facts: { runtimeRequests: number; moduleScripts: number }): boolean {
  return facts.runtimeRequests > 0 || facts.moduleScripts > 0;
}
