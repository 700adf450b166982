import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliCompress, createGzip, constants as zlib } from 'node:zlib';
import { contentTypeOf } from '../renderer/output/content-types.js';

export interface SiteState {
  /** Directory being served, once the bundle is in place. */
  root?: string;
  /** Identifies the bundle in ETags and headers (its sha256, or version). */
  bundleId?: string;
  version?: string;
}

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;
const NOT_FOUND_PAGE = '<!doctype html><meta charset="utf-8"><title>Not found</title><h1>Not found</h1><p>This page is not part of the documentation bundle.</p>';

/**
 * Serves an extracted bundle: content types by extension, directory URLs to index.html,
 * ETag/304, caching (HTML revalidates, other files an hour), gzip or brotli for text,
 * the bundle's own 404.html (or a plain one), and /healthz that is 503 until the
 * bundle is ready. Only GET and HEAD; nothing outside the root is ever reachable.
 */
export function createStaticServer(state: SiteState): Server {
  return createServer((req, res) => {
    handle(state, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error\n');
    });
  });
}

async function handle(state: SiteState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.setHeader('x-content-type-options', 'nosniff');
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/healthz') {
    const ready = state.root !== undefined;
    res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ status: ready ? 'ok' : 'loading', version: state.version ?? null }));
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
    return;
  }
  if (!state.root) {
    res.writeHead(503, { 'retry-after': '2', 'content-type': 'text/plain' }).end('the documentation bundle is loading\n');
    return;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request\n');
    return;
  }
  const segments = decoded.split('/').filter((s) => s !== '' && s !== '.');
  if (decoded.includes('\0') || segments.some((s) => s === '..' || s.includes('\\'))) return notFound(state, req, res);
  let file = path.join(state.root, ...segments);
  let info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) {
    if (!url.pathname.endsWith('/')) {
      // Rebuilt from the checked segments: `/.//guide` must not become `//guide/` (another host).
      res.writeHead(301, { location: `/${segments.map(encodeURIComponent).join('/')}/${url.search}` }).end();
      return;
    }
    file = path.join(file, 'index.html');
    info = await stat(file).catch(() => undefined);
  }
  if (!info?.isFile()) return notFound(state, req, res);

  const type = contentTypeOf(file);
  const etag = `W/"${state.bundleId ?? 'bundle'}-${info.size}-${Math.floor(info.mtimeMs)}"`;
  res.setHeader('etag', etag);
  res.setHeader('cache-control', type.startsWith('text/html') ? 'no-cache' : 'public, max-age=3600');
  if (state.version) res.setHeader('x-docport-version', state.version);
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304).end();
    return;
  }
  res.setHeader('content-type', type);
  const accepts = String(req.headers['accept-encoding'] ?? '');
  const compress = COMPRESSIBLE.test(type) && info.size > 1024;
  if (compress) res.setHeader('vary', 'accept-encoding');
  const encoding = compress ? (/\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : undefined) : undefined;
  if (encoding) res.setHeader('content-encoding', encoding);
  else res.setHeader('content-length', info.size);
  res.writeHead(200);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const source = createReadStream(file);
  if (encoding === 'br') await pipeline(source, createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }), res);
  else if (encoding === 'gzip') await pipeline(source, createGzip({ level: 6 }), res);
  else await pipeline(source, res);
}

async function notFound(state: SiteState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const custom = state.root ? await readFile(path.join(state.root, '404.html')).catch(() => undefined) : undefined;
  const body = custom ?? Buffer.from(NOT_FOUND_PAGE);
  res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
