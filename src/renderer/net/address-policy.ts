import { isIP } from 'node:net';

/**
 * Which network addresses the renderer may connect to. Link-local (which includes the
 * cloud metadata endpoints) and unspecified/multicast/reserved addresses are always
 * refused; loopback and private ranges only when RENDER_ALLOW_PRIVATE_NETWORKS is set
 * (needed for sites on a cluster network, and for the tests' loopback servers).
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192']);
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

function v4Parts(ip: string): number[] {
  return ip.split('.').map(Number);
}

function classifyV4(ip: string): AddressClass {
  if (METADATA_V4.has(ip)) return 'metadata';
  const [a = 0, b = 0] = v4Parts(ip);
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'private';
  if (a === 192 && b === 0 && v4Parts(ip)[2] === 0) return 'reserved'; // 192.0.0.0/24, IETF protocol assignments
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // 198.18.0.0/15, benchmarking
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved';
  return 'public';
}

/** Expands an IPv6 address to eight 16-bit groups. */
function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split('%')[0]!;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a = 0, b = 0, c = 0, d = 0] = v4Parts(v4[1]!);
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, -v4[1]!.length).replace(/:$/, ':0').replace(/::0$/, '::');
    if (text.endsWith(':0') && !text.endsWith('::0')) text = text.slice(0, -2);
  }
  const [head = '', rest] = text.split('::');
  const parse = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const fill = 8 - tail.length - left.length - right.length;
  return [...left, ...Array<number>(Math.max(0, fill)).fill(0), ...right, ...tail].slice(0, 8);
}

function classifyV6(ip: string): AddressClass {
  const g = v6Groups(ip);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const v4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const embeddedV4 = v4(g6, g7);
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  if (g.every((x) => x === 0)) return 'unspecified';
  if (g.slice(0, 7).every((x) => x === 0) && g7 === 1) return 'loopback';
  // Forms that carry an IPv4 address reach it (or may be translated to it): judged by it.
  if (zeroPrefix && g4 === 0 && g5 === 0xffff) return classifyV4(embeddedV4); // ::ffff:a.b.c.d, mapped
  if (zeroPrefix && g4 === 0 && g5 === 0) return classifyV4(embeddedV4); // ::a.b.c.d, IPv4-compatible
  if (zeroPrefix && g4 === 0xffff && g5 === 0) return classifyV4(embeddedV4); // ::ffff:0:a.b.c.d, SIIT
  if (g0 === 0x64 && g1 === 0xff9b) return classifyV4(embeddedV4); // NAT64 (64:ff9b::/96 and 64:ff9b:1::/48)
  if (g0 === 0x2002) return classifyV4(v4(g1, g2)); // 6to4 2002:AABB:CCDD::/48
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g7 === 0x254) return 'metadata'; // AWS IMDS over IPv6
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'reserved'; // site-local, deprecated
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  return 'public';
}

export function classifyAddress(ip: string): AddressClass {
  const family = isIP(ip);
  if (family === 4) return classifyV4(ip);
  if (family === 6) return classifyV6(ip);
  throw new Error(`not an IP address: ${ip}`);
}

/** Why connecting to `ip` is refused, or undefined when it is allowed. */
export function refusedAddress(ip: string, allowPrivateNetworks: boolean): string | undefined {
  const kind = classifyAddress(ip);
  if (kind === 'public') return undefined;
  if ((kind === 'loopback' || kind === 'private') && allowPrivateNetworks) return undefined;
  return kind === 'loopback' || kind === 'private'
    ? `${kind} address ${ip} refused (set RENDER_ALLOW_PRIVATE_NETWORKS=true to allow)`
    : `${kind} address ${ip} refused`;
}

/** Host names of metadata services, refused before any lookup. */
export function isMetadataHostName(host: string): boolean {
  return METADATA_HOSTS.has(host.toLowerCase().replace(/\.$/, ''));
}
