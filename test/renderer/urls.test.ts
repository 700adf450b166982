import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertSafeRelativePath, assetLocalPath, pageLocalPath, relativeHref, rootPrefix, sanitizeSegment } from '../../src/renderer/url/local-path.js';
import { PathAllocator } from '../../src/renderer/url/path-allocator.js';
import { createScope, inScope, normalizePageUrl, pageKey, pathUnderPrefix, resolveUrl } from '../../src/renderer/url/scope.js';

const O = 'https://docs.example.com';

describe('scope and page URLs', () => {
  it('scopes to the origin path, or to spec.paths, by whole segments', () => {
    const scope = createScope(`${O}/guide/`);
    assert.deepEqual(scope.seeds, [`${O}/guide/`]);
    assert.ok(inScope(new URL(`${O}/guide/a/b.html`), scope));
    assert.ok(inScope(new URL(`${O}/guide`), scope), 'the prefix without its slash (redirects to it)');
    assert.ok(!inScope(new URL(`${O}/guides/`), scope));
    assert.ok(!inScope(new URL('https://other.example.com/guide/'), scope));
    assert.ok(!inScope(new URL('http://docs.example.com/guide/'), scope), 'another scheme is another origin');
    const paths = createScope(`${O}/`, ['/v2/en', '/v3/']);
    assert.deepEqual(paths.seeds, [`${O}/v2/en`, `${O}/v3/`]);
    assert.ok(pathUnderPrefix('/v2/en/x', '/v2/en') && !pathUnderPrefix('/v2/english', '/v2/en'));
  });

  it('normalizes pages: no fragment, no query, index.html folded into its directory', () => {
    assert.equal(normalizePageUrl(`${O}/a/index.html?highlight=x#top`).href, `${O}/a/`);
    assert.equal(pageKey(`${O}/a/./b/../c.html#x`), `${O}/a/c.html`);
    assert.equal(pageKey('HTTPS://Docs.Example.com:443/A'), `${O}/A`);
    assert.equal(resolveUrl(' \n../x.png\t', `${O}/a/b/`)?.href, `${O}/a/x.png`);
    assert.equal(resolveUrl('http://[bad', O), undefined);
  });
});

describe('export paths', () => {
  it('gives every page an explicit file', () => {
    assert.equal(pageLocalPath(new URL(`${O}/`)), 'index.html');
    assert.equal(pageLocalPath(new URL(`${O}/a/`)), 'a/index.html');
    assert.equal(pageLocalPath(new URL(`${O}/a/b.html`)), 'a/b.html');
    assert.equal(pageLocalPath(new URL(`${O}/a/b`)), 'a/b/index.html');
    assert.equal(pageLocalPath(new URL(`${O}/a/b.php`)), 'a/b.php/index.html');
    assert.equal(pageLocalPath(new URL(`${O}/caf%C3%A9/`)), 'café/index.html');
  });

  it('keeps asset paths, separates query variants and other hosts, fixes extensions from the type', () => {
    assert.equal(assetLocalPath(new URL(`${O}/static/a.css`), O, 'text/css'), 'static/a.css');
    assert.match(assetLocalPath(new URL(`${O}/static/a.css?v=3`), O, 'text/css'), /^static\/a\.q-[0-9a-f]{8}\.css$/);
    assert.notEqual(assetLocalPath(new URL(`${O}/a.css?v=3`), O), assetLocalPath(new URL(`${O}/a.css?v=4`), O));
    assert.equal(assetLocalPath(new URL('https://fonts.example.net:8443/f/x.woff2'), O, 'font/woff2'), '_external/fonts.example.net_8443/f/x.woff2');
    assert.equal(assetLocalPath(new URL(`${O}/theme?dark`), O, 'text/css; charset=utf-8').replace(/q-[0-9a-f]+/, 'q'), 'theme.q.css');
    assert.equal(assetLocalPath(new URL(`${O}/img/`), O, 'image/png'), 'img/index.png');
    assert.equal(assetLocalPath(new URL(`${O}/logo.PNG`), O, 'image/png'), 'logo.PNG');
    assert.equal(assetLocalPath(new URL(`${O}/logo.php`), O, 'image/png'), 'logo.php.png', 'a wrong extension is fixed from the type');
  });

  it('never lets a path escape the root', () => {
    assert.equal(sanitizeSegment('..'), '__');
    assert.equal(sanitizeSegment('%2e%2e'), '__');
    assert.equal(sanitizeSegment('a%2Fb'), 'a_b');
    assert.equal(sanitizeSegment('a\\b:c'), 'a_b_c');
    assert.equal(pageLocalPath(new URL(`${O}/%2e%2e/%2e%2e/etc/passwd`)), 'etc/passwd/index.html', 'URL parsing resolves dot segments first');
    assert.equal(assetLocalPath(new URL(`${O}/a/..%2f..%2fx.png`), O), 'a/.._.._x.png');
    for (const bad of ['', '/etc/passwd', '../x', 'a/../../x', 'a//b', 'a/./b', 'a\\b', 'a\u0000b']) {
      assert.throws(() => assertSafeRelativePath(bad), /unsafe export path/, JSON.stringify(bad));
    }
    assert.equal(sanitizeSegment('x'.repeat(300)).length <= 150, true);
  });

  it('links files relative to each other', () => {
    assert.equal(relativeHref('a/b/index.html', 'a/c.css'), '../c.css');
    assert.equal(relativeHref('index.html', 'a/b/index.html'), 'a/b/index.html');
    assert.equal(relativeHref('a/index.html', 'a/index.html'), 'index.html');
    assert.equal(relativeHref('a/x.html', 'b/c d#?.html'), '../b/c%20d%23%3F.html');
    assert.equal(relativeHref('index.html', 'a:b.html'), './a:b.html');
    assert.equal(rootPrefix('a/b/index.html'), '../../');
    assert.equal(rootPrefix('index.html'), '');
  });

  it('allocates clashing paths to numbered names, files never shadowing directories', () => {
    const paths = new PathAllocator();
    assert.equal(paths.claim('a/logo.png'), 'a/logo.png');
    assert.equal(paths.claim('a/logo.png'), 'a/logo-2.png');
    assert.equal(paths.claim('a'), 'a-2', 'a file cannot take the name of a directory');
    assert.equal(paths.claim('f'), 'f');
    assert.equal(paths.claim('f/index.html'), 'f-2/index.html', 'nor a directory the name of a file');
    assert.throws(() => paths.claim('../x'));
  });
});
