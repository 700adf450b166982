// The fixture documentation site (test/fixtures/sites/docs) and an "external" host,
// with the routes no static file can express: redirects, a slow page, SPA fallback.
import { fileURLToPath } from 'node:url';
import { serveDirectory, type ServedSite } from './static-server.js';

export const FIXTURES = fileURLToPath(new URL('../../../../test/fixtures/sites/', import.meta.url));

export interface FixtureSites {
  site: ServedSite;
  external: ServedSite;
  /** host:port of the external server as pages reference it (allowed asset host). */
  externalHost: string;
  close(): Promise<void>;
}

export const SLOW_PAGE_HTML = '<!doctype html><html lang="en"><title>Slow page</title><main><h1 id="slow">Slow page</h1><p>Eventually here.</p></main></html>';

/**
 * `slowFirstMs`: the first request of /slow/ waits this long (longer than the page timeout
 * the test sets), later ones answer at once: a retry must rescue it.
 */
export async function startFixtureSites(slowFirstMs = 4000): Promise<FixtureSites> {
  const external = await serveDirectory(`${FIXTURES}external`);
  const externalPort = new URL(external.origin).port;
  const externalHost = `localhost:${externalPort}`;
  let origin = '';
  const site = await serveDirectory(`${FIXTURES}docs`, {
    placeholders: {
      get ORIGIN() { return origin; },
      EXTERNAL: `http://${externalHost}`,
      BLOCKED: `http://127.0.0.2:${externalPort}`,
    },
    routes: async (_req, res, pathname, hits) => {
      if (pathname === '/old-guide/') {
        res.writeHead(301, { location: '/v2/en/guide/' }).end();
        return true;
      }
      if (pathname === '/slow/') {
        if (hits === 1) await new Promise((r) => setTimeout(r, slowFirstMs));
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/html' }).end(SLOW_PAGE_HTML);
        return true;
      }
      if (/^\/app\/[^.]+$/.test(pathname)) return '/app/'; // SPA fallback: every route serves the shell
      return false;
    },
  });
  origin = site.origin;
  return { site, external, externalHost, close: async () => { await site.close(); await external.close(); } };
}
