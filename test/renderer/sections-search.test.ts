import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { describe, it } from 'node:test';
import { manifestImageUrls, rewriteManifest } from '../../src/renderer/assets/web-manifest.js';
import { parseSitemap, sitemapsFromRobots } from '../../src/renderer/crawl/sitemap.js';
import { buildSections, cleanHeading, parseTags } from '../../src/renderer/sections/extract-sections.js';
import { buildOfflineIndex, offlineIndexScript } from '../../src/renderer/search/offline-index.js';
import { searchTerms } from '../../src/renderer/search/search-terms.js';
import { searchWidgetMarkup, searchWidgetScript } from '../../src/renderer/search/widget.js';

describe('heading sections', () => {
  it('makes one section per heading with its hierarchy, plus the text before the first heading', () => {
    const sections = buildSections([
      { text: ' Intro  text ' },
      { heading: { level: 1, text: 'Guide¶', anchor: 'guide' }, text: 'About the guide.' },
      { heading: { level: 2, text: 'Install #', anchor: 'install' }, text: 'Run it.' },
      { heading: { level: 3, text: 'Linux' }, text: 'apt.' },
      { heading: { level: 2, text: 'Usage', anchor: 'usage' }, text: '' },
      { heading: { level: 2, text: '' }, text: 'Icon-only heading text.' },
    ], { path: '/guide/', title: 'The Guide', lang: 'en', tags: ['a'] });
    assert.deepEqual(sections.map((s) => [s.anchor, s.headings, s.content]), [
      [undefined, [], 'Intro text'],
      ['guide', ['Guide'], 'About the guide.'],
      ['install', ['Guide', 'Install'], 'Run it.'],
      [undefined, ['Guide', 'Install', 'Linux'], 'apt.'],
      ['usage', ['Guide', 'Usage'], 'Icon-only heading text.'],
    ]);
    assert.ok(sections.every((s) => s.title === 'The Guide' && s.language === 'en' && s.tags?.[0] === 'a' && s.path === '/guide/'));
    assert.equal(cleanHeading(' Title \u00b6 '), 'Title');
    assert.deepEqual(parseTags(['a, b', 'b', ' c ']), ['a', 'b', 'c']);
  });
});

describe('offline search', () => {
  const index = buildOfflineIndex([
    { file: 'guide/index.html', section: { path: '/guide/', anchor: 'install', title: 'Guide', headings: ['Guide', 'Install'], content: 'Install the dragon engine with apt.' } },
    { file: 'fr/index.html', section: { path: '/fr/', title: 'Accueil', headings: ['Café'], content: 'Le café est prêt.' } },
  ]);

  it('indexes folded terms to documents', () => {
    assert.deepEqual(searchTerms('Café, PRÊT! a 日本'), ['cafe', 'pret', '日本']);
    assert.deepEqual(index.terms.dragon, [0]);
    assert.deepEqual(index.terms.cafe, [1]);
    assert.deepEqual(index.docs[0], ['guide/index.html', 'install', 'Guide', 'Guide › Install', 'Install the dragon engine with apt.']);
    assert.doesNotMatch(offlineIndexScript({ version: 1, docs: [['a', '', '</script>', '', '']], terms: {} }), /<\/script>/);
  });

  it('the widget script finds sections by prefix and links them relative to the page', () => {
    interface FakeElement { textContent: string; hidden: boolean; children: unknown[]; href?: string; appendChild(c: unknown): void }
    const make = (): FakeElement => ({ textContent: '', hidden: true, children: [], appendChild(c) { this.children.push(c); } });
    const listeners: Record<string, () => void> = {};
    const input = { value: '', addEventListener: (type: string, fn: () => void) => (listeners[type] = fn) };
    const list = make();
    const box = { getAttribute: () => '../', querySelector: (s: string) => (s === 'input' ? input : list) };
    const window: Record<string, unknown> = {};
    const document = { getElementById: () => box, createElement: () => make(), head: make(), documentElement: make() };
    runInNewContext(offlineIndexScript(index) + searchWidgetScript(), { window, document });
    input.value = 'drag';
    listeners.input!();
    const first = list.children[0] as { children: Array<{ href?: string; textContent: string }> };
    assert.equal(first.children[0]!.href, '../guide/index.html#install');
    assert.equal(first.children[0]!.textContent, 'Guide › Install');
    assert.match(searchWidgetMarkup('../'), /data-root="\.\.\/"[\s\S]*src="\.\.\/_docport\/search\.js"/);
  });
});

describe('sitemaps and manifests', () => {
  it('reads Sitemap: lines and both sitemap kinds', () => {
    assert.deepEqual(sitemapsFromRobots('User-agent: *\nSitemap: /s.xml # main\nsitemap:https://x.example/b.xml\n', 'https://d.example/robots.txt'), ['https://d.example/s.xml', 'https://x.example/b.xml']);
    const urlset = parseSitemap('<?xml version="1.0"?><urlset><url><loc> https://d.example/a?x=1&amp;y=2 </loc></url><!-- <loc>https://d.example/c</loc> --><url><loc><![CDATA[https://d.example/b]]></loc></url></urlset>', 'https://d.example/s.xml');
    assert.deepEqual(urlset, { kind: 'urlset', locations: ['https://d.example/a?x=1&y=2', 'https://d.example/b'] });
    assert.equal(parseSitemap('<sm:sitemapindex><sm:sitemap><sm:loc>/p.xml</sm:loc></sm:sitemap></sm:sitemapindex>', 'https://d.example/').kind, 'sitemapindex');
  });

  it('follows and rewrites web app manifest images', () => {
    const text = JSON.stringify({ start_url: '/', scope: '/', icons: [{ src: '/a.png' }, { src: 'https://cdn/b.png' }], shortcuts: [{ icons: [{ src: 'c.png' }] }] });
    assert.deepEqual(manifestImageUrls(text), ['/a.png', 'https://cdn/b.png', 'c.png']);
    const out = JSON.parse(rewriteManifest(text, (src) => (src.startsWith('https:') ? null : `x/${src.replace(/^\//, '')}`))) as Record<string, unknown>;
    assert.deepEqual(out.icons, [{ src: 'x/a.png' }]);
    assert.equal(out.start_url, 'x/');
    assert.equal(out.scope, undefined);
  });
});
