import type { DomPolicy, ReferenceKind } from './html/dom-policy.js';

/**
 * What the renderer needs from a browser: load a URL in a warm page, wait until it has
 * settled, and hand back a snapshot of the rendered DOM. The Playwright adapter
 * (src/adapters/playwright) implements it; nothing else here knows about Playwright.
 */
export interface PageRenderer {
  render(url: string, options: RenderOptions): Promise<PageLoad>;
  close(): Promise<void>;
}

export interface RenderOptions {
  /** 'export' tokenizes the DOM for rewriting; 'index' only extracts text and links. */
  mode: 'export' | 'index';
  /** Prefix of the placeholder tokens written into URL attributes (random per run). */
  tokenPrefix: string;
  policy: DomPolicy;
  /** Whether the body of a loaded subresource should be kept (not yet stored, allowed host). */
  wantResource(url: string): boolean;
  /** Decides from what the page did whether its scripts stay in the export. */
  removeScripts(facts: { runtimeRequests: number; moduleScripts: number }): boolean;
}

export interface CapturedResource {
  url: string;
  status: number;
  contentType?: string;
  body: Buffer;
}

export interface PageReference {
  /** Number in the placeholder `<tokenPrefix><token>-` that replaced the value in `html`. */
  token: number;
  kind: ReferenceKind;
  /** The attribute value or style text as it was in the rendered DOM. */
  value: string;
  /** Lower-case tag name of the element. */
  element: string;
}

/** A reference the crawl follows without rewriting it. */
export type PageLink = Pick<PageReference, 'kind' | 'value'>;

/** Text of a page in document order; a heading starts a new block. */
export interface TextBlock {
  heading?: { level: number; text: string; anchor?: string };
  text: string;
}

export interface PageSnapshot {
  /** Base URL references resolve against (document.baseURI, honouring <base>). */
  baseUrl: string;
  title: string;
  lang?: string;
  /** Raw tag declarations: meta keywords, article:tag, docport:tags. */
  tagDeclarations: string[];
  /** The serialized DOM with URL values replaced by tokens (export mode only). */
  html?: string;
  references: PageReference[];
  /**
   * Links, frames and meta refreshes of the live document, when `html` is the document as
   * served: the page's kept scripts may have added links the served copy lacks.
   */
  liveLinks?: PageLink[];
  /** Every id and a[name] of the page, for fragment checks. */
  ids: string[];
  blocks: TextBlock[];
  /** Whether the page's scripts were removed (see shouldRemoveScripts). */
  scriptsRemoved: boolean;
}

export interface PageLoad {
  finalUrl: string;
  status: number;
  contentType?: string;
  /** Present when the response was an HTML document that rendered. */
  snapshot?: PageSnapshot;
  /** Subresources the page loaded that options.wantResource asked for. */
  resources: CapturedResource[];
}

/** Why a render failed; `retriable` tells the crawler whether another attempt can help. */
export class PageRenderError extends Error {
  constructor(message: string, readonly reason: 'timeout' | 'crash' | 'navigation' | 'not-html', readonly retriable: boolean) {
    super(message);
    this.name = 'PageRenderError';
  }
}
