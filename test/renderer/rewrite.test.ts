import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PageReference } from '../../src/renderer/browser-port.js';
import { applyReferences, injectBeforeBodyEnd } from '../../src/renderer/rewrite/finalize-html.js';
import { rewriteReference, type ExportIndex, type RewriteContext, type Target } from '../../src/renderer/rewrite/resolve-reference.js';
import { inlineSpriteUses, spriteMarkup } from '../../src/renderer/rewrite/svg-sprites.js';

const O = 'https://docs.example.com';
const pages: Record<string, { path: string; ids: string[] }> = {
  [`${O}/`]: { path: 'index.html', ids: ['top-title'] },
  [`${O}/guide/`]: { path: 'guide/index.html', ids: ['intro', 'a b'] },
};
const assets: Record<string, string> = { [`${O}/s/a.css`]: 's/a.css', [`${O}/img/x.png`]: 'img/x.png', [`${O}/icons.svg`]: 'icons.svg', [`${O}/doc.pdf`]: 'doc.pdf' };
const index: ExportIndex = {
  link(url): Target {
    const page = pages[url.href.replace(/\?.*$/, '').replace(/index\.html$/, '')];
    if (page) return { kind: 'local', path: page.path };
    if (assets[url.href]) return { kind: 'local', path: assets[url.href]! };
    if (url.pathname === '/broken.html') return { kind: 'drop', reason: 'linked page failed: HTTP 404' };
    return { kind: 'external', url: url.href };
  },
  asset: (url) => (assets[url.href] ? { kind: 'local', path: assets[url.href]! } : { kind: 'drop', reason: 'not downloaded' }),
  idsOf: (path) => {
    const ids = Object.values(pages).find((p) => p.path === path)?.ids;
    return ids ? new Set(ids) : undefined;
  },
};
const ctx = (): RewriteContext => ({ filePath: 'guide/index.html', baseUrl: `${O}/guide/`, index, issues: [] });

describe('reference rewriting', () => {
  it('makes same-site links relative with explicit index.html and keeps good fragments', () => {
    const c = ctx();
    assert.equal(rewriteReference('link', '/', c), '../index.html');
    assert.equal(rewriteReference('link', '../index.html?x=1#top-title', c), '../index.html#top-title');
    assert.equal(rewriteReference('link', './#intro', c), '#intro');
    assert.equal(rewriteReference('link', '#a%20b', c), '#a%20b');
    assert.equal(rewriteReference('link', '/doc.pdf#page=2', c), '../doc.pdf#page=2', 'fragments of non-pages are not checked');
    assert.deepEqual(c.issues, []);
  });

  it('drops missing fragments and failed pages, reporting them; keeps external links absolute', () => {
    const c = ctx();
    assert.equal(rewriteReference('link', '/#nope', c), '../index.html');
    assert.equal(rewriteReference('link', '#nope', c), '#');
    assert.equal(rewriteReference('link', '/broken.html', c), null);
    assert.equal(rewriteReference('link', '/outside/x', c), `${O}/outside/x`);
    assert.equal(rewriteReference('link', 'https://x.example/a#b', c), 'https://x.example/a#b');
    assert.equal(rewriteReference('link', 'file:///home/me/site/index.html', c), null);
    assert.equal(c.issues.length, 4);
  });

  it('rewrites assets, srcset, styles and refreshes; never hot-links', () => {
    const c = ctx();
    assert.equal(rewriteReference('asset', '/img/x.png', c), '../img/x.png');
    assert.equal(rewriteReference('asset', 'https://cdn.example/y.js', c), null);
    assert.equal(rewriteReference('asset', 'data:image/png;base64,AA', c), 'data:image/png;base64,AA');
    assert.equal(rewriteReference('srcset', '/img/x.png 1x, https://cdn.example/y.png 2x', c), '../img/x.png 1x');
    assert.equal(rewriteReference('srcset', 'https://cdn.example/y.png 2x', c), null);
    assert.equal(rewriteReference('style-attr', 'background:url(/img/x.png);mask:url(#m)', c), 'background:url("../img/x.png");mask:url(#m)');
    assert.equal(rewriteReference('frame', 'https://video.example/embed', c), null);
    assert.equal(rewriteReference('meta-refresh', '0; url=/', c), '0; url=../index.html');
  });

  it('replaces placeholder tokens, removing dropped attributes and escaping values', () => {
    const refs: PageReference[] = [
      { token: 0, kind: 'link', value: '/?a=1&b=2', element: 'a' },
      { token: 1, kind: 'asset', value: 'https://cdn.example/t.js', element: 'script' },
      { token: 10, kind: 'style-element', value: 'a{b:url(/img/x.png)}', element: 'style' },
    ];
    const html = '<html><head><style>dpX10-</style><script src="dpX1-"></script></head><body><a href="dpX0-" class="k">x</a></body></html>';
    const out = applyReferences(html, 'dpX', refs, ctx());
    assert.equal(out, '<html><head><style>a{b:url("../img/x.png")}</style><script></script></head><body><a href="../index.html" class="k">x</a></body></html>');
    assert.equal(injectBeforeBodyEnd('<body>x</body></html>', '<i>s</i>'), '<body>x<i>s</i></body></html>');
  });

  it('inlines SVG sprites that <use> points into', () => {
    const { references, sprites } = inlineSpriteUses([{ token: 0, kind: 'asset', value: '/icons.svg#star', element: 'use' }, { token: 1, kind: 'asset', value: '/img/x.png', element: 'img' }], `${O}/guide/`, index);
    assert.deepEqual(sprites, ['icons.svg']);
    assert.equal(references[0]!.value, '#star');
    assert.equal(references[1]!.value, '/img/x.png');
    assert.equal(spriteMarkup('<?xml version="1.0"?><svg><symbol id="star"/></svg>'), '<div hidden aria-hidden="true" data-docport-sprite=""><svg><symbol id="star"/></svg></div>');
  });
});
