import { isMetadataHostName } from './address-policy.js';

const effectivePort = (url: URL): string => url.port || (url.protocol === 'https:' ? '443' : '80');

/**
 * Which hosts the renderer fetches from: the origin's host and port, and the explicitly
 * allowed asset hosts (RENDER_ASSET_HOSTS: "host" means ports 80 and 443, "host:port"
 * that port), nothing else.
 */
export class HostPolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(originUrl: string, assetHosts: readonly string[]) {
    const origin = new URL(originUrl);
    const entries = [`${origin.hostname.toLowerCase()}:${effectivePort(origin)}`];
    for (const h of assetHosts) {
      const host = h.toLowerCase();
      if (/:\d+$/.test(host)) entries.push(host);
      else entries.push(`${host}:80`, `${host}:443`);
    }
    this.allowed = new Set(entries);
  }

  /** Why a URL may not be fetched, or undefined when it may. */
  refusal(url: URL | string): string | undefined {
    let parsed: URL;
    try {
      parsed = typeof url === 'string' ? new URL(url) : url;
    } catch {
      return 'not a valid URL';
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `scheme ${parsed.protocol} not fetched`;
    return this.refusalForHost(parsed.hostname, effectivePort(parsed));
  }

  /** `hostname` as URL.hostname spells it (IPv6 in brackets). */
  refusalForHost(hostname: string, port: string): string | undefined {
    const host = hostname.toLowerCase();
    if (isMetadataHostName(host)) return `metadata host ${host} refused`;
    if (this.allowed.has(`${host}:${port}`)) return undefined;
    return `host ${host}:${port} is not the origin or an allowed asset host`;
  }
}
