import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentTypeOf } from '../renderer/output/content-types.js';

export const DEMO_SITE_DIR = fileURLToPath(new URL('../../../config/demo-site/', import.meta.url));

/**
 * Serves config/demo-site as the "live" documentation site of `make run`: a few nested
 * pages, CSS with url(), an SVG, robots.txt and a sitemap (whose __ORIGIN__ placeholders
 * become this server's address).
 */
export async function startDemoSite(host: string, port: number): Promise<{ origin: string; stop(): Promise<void> }> {
  let origin = '';
  const server: Server = createServer((req, res) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const segments = pathname.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
      let file = path.join(DEMO_SITE_DIR, ...segments);
      if ((await stat(file).catch(() => undefined))?.isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file).catch(() => undefined);
      if (!body) {
        res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(await readFile(path.join(DEMO_SITE_DIR, '404.html')));
        return;
      }
      const type = contentTypeOf(file);
      const text = /\.(xml|txt)$/.test(file) ? Buffer.from(body.toString('utf8').replaceAll('__ORIGIN__', origin)) : body;
      res.writeHead(200, { 'content-type': type }).end(text);
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { origin, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
