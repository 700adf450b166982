import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddress } from './address-policy.js';

export class RefusedAddressError extends Error {
  readonly code = 'EDOCPORTREFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddressError';
  }
}

/**
 * A DNS lookup for sockets that refuses forbidden addresses. Checking the address the
 * socket actually connects to (not a name looked up earlier) defeats DNS rebinding.
 * Every address a name resolves to must be allowed, so a name cannot mix in a private one.
 */
export function guardedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.map((a) => refusedAddress(a.address, allowPrivateNetworks)).find((r) => r !== undefined);
      if (refused) return callback(new RefusedAddressError(`${hostname}: ${refused}`), '', 0);
      if (addresses.length === 0) return callback(new Error(`${hostname}: no addresses`), '', 0);
      // IPv4 first: a name like localhost often has ::1 too, where many servers do not listen.
      addresses.sort((a, b) => a.family - b.family);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * Node connects to an IP literal without calling `lookup`, so literals are checked here,
 * before any socket is opened. `hostname` as URL.hostname spells it (IPv6 in brackets).
 */
export function refusedLiteral(hostname: string, allowPrivateNetworks: boolean): string | undefined {
  const host = hostname.replace(/^\[|\]$/g, '');
  return isIP(host) === 0 ? undefined : refusedAddress(host, allowPrivateNetworks);
}
