import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { HostPolicy } from './host-policy.js';
import { guardedLookup, refusedLiteral } from './guarded-lookup.js';

export interface FetchedResource {
  url: string;
  status: number;
  contentType?: string;
  body: Buffer;
}

/** A fetch the renderer chose not to make or could not finish; `permanent` means do not retry. */
export class FetchError extends Error {
  constructor(message: string, readonly reason: 'refused' | 'too-large' | 'http' | 'network' | 'timeout', readonly permanent: boolean, readonly status?: number) {
    super(message);
    this.name = 'FetchError';
  }
}

const MAX_REDIRECTS = 5;

/**
 * Node-side GETs for what the browser did not load itself (sitemaps, robots.txt, srcset
 * candidates, CSS imports, lazy images): the same host and address policy as the browser's
 * egress proxy, redirects re-checked at each hop, bodies capped at maxBytes.
 */
export class HttpFetcher {
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;

  constructor(private readonly policy: HostPolicy, private readonly allowPrivateNetworks: boolean, private readonly timeoutMs: number) {
    const lookup = guardedLookup(allowPrivateNetworks);
    this.httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 8, lookup });
    this.httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 8, lookup });
  }

  async get(url: string, maxBytes: number): Promise<FetchedResource> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refusal = this.policy.refusal(current) ?? refusedLiteral(new URL(current).hostname, this.allowPrivateNetworks);
      if (refusal) throw new FetchError(refusal, 'refused', true);
      const response = await this.request(current);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.resume();
        current = new URL(location, current).href;
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new FetchError(`HTTP ${status} for ${current}`, 'http', status < 500 && status !== 429, status);
      }
      const declared = Number(response.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        response.destroy();
        throw new FetchError(`${current} is ${declared} bytes, over the ${maxBytes}-byte limit`, 'too-large', true);
      }
      const body = await readCapped(decoded(response), maxBytes, current);
      const contentType = response.headers['content-type'];
      return { url: current, status, body, ...(contentType ? { contentType } : {}) };
    }
    throw new FetchError(`more than ${MAX_REDIRECTS} redirects from ${url}`, 'http', true);
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private request(url: string): Promise<IncomingMessage> {
    const https = url.startsWith('https:');
    return new Promise((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(url, {
        method: 'GET',
        agent: https ? this.httpsAgent : this.httpAgent,
        headers: { 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'docport-renderer', accept: '*/*' },
        timeout: this.timeoutMs,
      }, resolve);
      req.on('timeout', () => req.destroy(new FetchError(`timed out after ${this.timeoutMs} ms: ${url}`, 'timeout', false)));
      req.on('error', (error) => {
        if (error instanceof FetchError) reject(error);
        else if ((error as { code?: string }).code === 'EDOCPORTREFUSED') reject(new FetchError(error.message, 'refused', true));
        else reject(new FetchError(`${url}: ${error.message}`, 'network', false));
      });
      req.end();
    });
  }
}

function decoded(response: IncomingMessage): Readable {
  switch ((response.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip': return response.pipe(createGunzip());
    case 'deflate': return response.pipe(createInflate());
    case 'br': return response.pipe(createBrotliDecompress());
    default: return response;
  }
}

async function readCapped(stream: Readable, maxBytes: number, url: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      throw new FetchError(`${url} is over the ${maxBytes}-byte limit`, 'too-large', true);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
