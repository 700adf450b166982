// A small static file server for the renderer tests: fixture sites (with placeholders and
// the special routes the tests need) and exported trees replayed under a sub-path.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.json': 'application/json',
  '.webmanifest': 'application/manifest+json', '.xml': 'application/xml', '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.pdf': 'application/pdf', '.ico': 'image/x-icon',
  '.jpg': 'image/jpeg', '.gif': 'image/gif', '.inv': 'application/octet-stream',
};
const TEXT = new Set(['.html', '.css', '.js', '.json', '.webmanifest', '.xml', '.txt']);

export interface ServedSite {
  origin: string;
  /** Requests per path (without query). */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Only paths under this prefix are served (the rest is 404); the prefix is stripped. */
  prefix?: string;
  /** {{NAME}} placeholders replaced in text files; {{SRI:/path}} becomes that file's sha256 integrity. */
  placeholders?: Record<string, string>;
  /** Routes answered before the file system: true when handled, a path to serve that file instead. */
  routes?: (req: IncomingMessage, res: ServerResponse, pathname: string, hits: number) => boolean | string | Promise<boolean | string>;
  /** Serve /dir/ (no index.html) as 404 instead of a listing: static hosts differ, exports must not rely on it. */
  host?: string;
}

export async function serveDirectory(root: string, options: ServeOptions = {}): Promise<ServedSite> {
  const hits = new Map<string, number>();
  const prefix = options.prefix ?? '';
  const substitute = async (text: string): Promise<string> => {
    let out = text;
    for (const [name, value] of Object.entries(options.placeholders ?? {})) out = out.replaceAll(`{{${name}}}`, value);
    for (const m of [...out.matchAll(/\{\{SRI:([^}]+)\}\}/g)]) {
      const body = await readFile(path.join(root, m[1]!));
      out = out.replace(m[0], `sha256-${createHash('sha256').update(body).digest('base64')}`);
    }
    return out;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      let pathname = decodeURIComponent(url.pathname);
      const count = (hits.get(pathname) ?? 0) + 1;
      hits.set(pathname, count);
      const routed = options.routes ? await options.routes(req, res, pathname, count) : false;
      if (routed === true) return;
      if (typeof routed === 'string') pathname = routed;
      if (!pathname.startsWith(prefix)) return notFound(res);
      pathname = pathname.slice(prefix.length) || '/';
      let file = path.join(root, path.normalize(pathname));
      if (!file.startsWith(path.resolve(root))) return notFound(res);
      let info = await stat(file).catch(() => undefined);
      if (info?.isDirectory()) {
        if (!pathname.endsWith('/')) {
          res.writeHead(301, { location: `${prefix}${pathname}/${url.search}` }).end();
          return;
        }
        file = path.join(file, 'index.html');
        info = await stat(file).catch(() => undefined);
      }
      if (!info?.isFile()) return notFound(res);
      const ext = path.extname(file).toLowerCase();
      let body: Buffer | string = await readFile(file);
      if (TEXT.has(ext) && options.placeholders) body = await substitute(body.toString('utf8'));
      res.writeHead(200, { 'content-type': TYPES[ext] ?? 'application/octet-stream', 'cache-control': 'max-age=60' });
      res.end(body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
}
