import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { HostPolicy } from './host-policy.js';
import { guardedLookup, refusedLiteral } from './guarded-lookup.js';

export interface Refusal {
  url: string;
  reason: string;
}

/**
 * The browser's only way out: an HTTP proxy on loopback that forwards requests (and
 * CONNECT tunnels for https) to allowed hosts at allowed addresses and answers 403 to
 * everything else. Enforcing this outside Chromium covers every request a page can make
 * (scripts, CSS, redirects, websockets) without route() interception, which would
 * disable the browser's HTTP cache.
 */
export class EgressProxy {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly sockets: Set<Duplex>,
    private readonly agent: Agent,
  ) {}

  static async start(policy: HostPolicy, allowPrivateNetworks: boolean, onRefused: (r: Refusal) => void): Promise<EgressProxy> {
    const lookup = guardedLookup(allowPrivateNetworks);
    const agent = new Agent({ keepAlive: true, maxSockets: 16, lookup });
    const sockets = new Set<Duplex>();
    const track = (s: Duplex): void => {
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    };

    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let target: URL;
      try {
        target = new URL(req.url ?? '');
      } catch {
        res.writeHead(400).end('absolute URL expected');
        return;
      }
      const refusal = policy.refusal(target) ?? refusedLiteral(target.hostname, allowPrivateNetworks);
      if (refusal) {
        onRefused({ url: target.href, reason: refusal });
        res.writeHead(403, { 'content-type': 'text/plain', 'x-docport-refused': '1' }).end(refusal);
        return;
      }
      const headers = { ...req.headers };
      delete headers['proxy-connection'];
      delete headers['proxy-authorization'];
      const upstream = httpRequest(target, { method: req.method, headers, agent, lookup }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on('error', (error) => {
        if (/refused/i.test(error.message)) onRefused({ url: target.href, reason: error.message });
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end();
      });
      req.pipe(upstream);
    });
    server.on('connection', track);
    server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      track(client);
      const [host = '', port = '443'] = splitHostPort(req.url ?? '');
      const refusal = policy.refusalForHost(host, port) ?? refusedLiteral(host, allowPrivateNetworks);
      if (refusal) {
        onRefused({ url: `https://${req.url ?? ''}/`, reason: refusal });
        client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      const upstream = connect({ host: host.replace(/^\[|\]$/g, ''), port: Number(port), lookup });
      track(upstream);
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', (error) => {
        if (/refused/i.test(error.message)) onRefused({ url: `https://${req.url ?? ''}/`, reason: error.message });
        client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
      });
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as AddressInfo;
    return new EgressProxy(server, `http://127.0.0.1:${port}`, sockets, agent);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.agent.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function splitHostPort(authority: string): [string, string] {
  const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(authority);
  return m ? [m[1]!.toLowerCase(), m[2]!] : [authority.toLowerCase(), '443'];
}
