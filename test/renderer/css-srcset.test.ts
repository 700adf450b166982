import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findCssReferences, rewriteCss } from '../../src/renderer/css/css-references.js';
import { parseSrcset, serializeSrcset } from '../../src/renderer/html/srcset.js';

describe('CSS references', () => {
  it('finds url(), @import and image-set strings, not comments or other strings', () => {
    const css = `@import "a.css"; @import url(b.css) screen; /* url(no.png) */
      .x { background: url( 'c d.png' ) , url(e\\(1\\).png); content: "url(not-a-url.png)"; }
      .y { background-image: -webkit-image-set("f.png" 1x, url(g.png) 2x); }
      @font-face { src: url("h.woff2?#iefix") format("woff2"); }
      .z { mask: URL(#clip); }`;
    const refs = findCssReferences(css).map((r) => `${r.kind}:${r.url}`);
    assert.deepEqual(refs, ['import:a.css', 'import:b.css', 'url:c d.png', 'url:e(1).png', 'image-set:f.png', 'url:g.png', 'url:h.woff2?#iefix', 'url:#clip']);
  });

  it('rewrites, drops imports whole and empties dropped urls', () => {
    const css = '@import "gone.css";\n@import url(keep.css);\nbody{background:url(x.png) repeat}\n.i{background-image:image-set("y.png" 1x)}';
    const out = rewriteCss(css, (r) => (r.url === 'gone.css' ? null : r.url === 'x.png' ? null : `../${r.url}`));
    assert.equal(out, '\n@import url("../keep.css");\nbody{background:url("data:,") repeat}\n.i{background-image:image-set("../y.png" 1x)}');
    assert.equal(rewriteCss('a{b:url("q\\"uote.png")}', (r) => r.url), 'a{b:url("q\\"uote.png")}');
  });
});

describe('srcset', () => {
  it('parses candidates as the HTML standard does', () => {
    assert.deepEqual(parseSrcset('a.png 1x, b.png 2x'), [{ url: 'a.png', descriptor: '1x' }, { url: 'b.png', descriptor: '2x' }]);
    assert.deepEqual(parseSrcset(' a.png, b.png 640w,\n c.png?x=1,2 1024w '), [{ url: 'a.png', descriptor: '' }, { url: 'b.png', descriptor: '640w' }, { url: 'c.png?x=1,2', descriptor: '1024w' }]);
    assert.deepEqual(parseSrcset('a.png,b.png 2x'), [{ url: 'a.png,b.png', descriptor: '2x' }], 'a comma inside a URL belongs to it');
    assert.deepEqual(parseSrcset('data:image/png;base64,AAA= 1x'), [{ url: 'data:image/png;base64,AAA=', descriptor: '1x' }]);
    assert.equal(serializeSrcset([{ url: 'a b.png', descriptor: '2x' }, { url: 'c.png', descriptor: '' }]), 'a%20b.png 2x, c.png');
  });
});
