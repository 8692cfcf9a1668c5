import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address; injectable so tests can play a DNS-rebinding server. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const answers = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrlError';
  }
}

const NEVER_ALLOWED = new Set(['unspecified', 'broadcast', 'multicast']);

/**
 * Only public unicast addresses are reachable: loopback, private, link-local (cloud metadata
 * at 169.254.169.254), CGNAT, unique-local and reserved ranges are refused unless private
 * addresses are explicitly allowed (development and tests).
 */
export function isAllowedAddress(address: string, allowPrivate: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    // ::/96 less :: and ::1 is the deprecated IPv4-compatible form (::127.0.0.1 = ::7f00:1), which
    // ipaddr.js calls unicast; some stacks still route it to the embedded IPv4 address.
    else if (isIpv4Compatible(v6)) return false;
  }
  const range = parsed.range();
  if (NEVER_ALLOWED.has(range)) return false;
  return allowPrivate || range === 'unicast';
}

function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  return parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1);
}

/** Checks the shape of a receiver URL: http(s), a host, no credentials, no fragment. */
export function checkUrlShape(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('Not a valid absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnsafeUrlError('The URL must use https (or http).');
  if (url.username || url.password) throw new UnsafeUrlError('The URL must not contain credentials.');
  if (url.hash) throw new UnsafeUrlError('The URL must not contain a fragment.');
  if (!url.hostname) throw new UnsafeUrlError('The URL needs a host.');
  return url;
}

/**
 * Resolves the URL's host once and checks every address it resolves to; the caller connects to
 * the returned address, never resolving again, so a DNS answer that changes between the check
 * and the connection (rebinding) cannot reach a private address.
 */
export async function resolveSafeAddress(url: URL, options: { allowPrivate: boolean; resolver?: HostResolver }): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return (await resolveSafeAddresses(host, options))[0]!;
}

/** Every address of `host` (a name or an IP literal), or UnsafeUrlError if any one is not allowed. */
export async function resolveSafeAddresses(host: string, options: { allowPrivate: boolean; resolver?: HostResolver }): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[];
  if (net.isIP(host)) {
    addresses = [{ address: host, family: net.isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolver ?? systemResolver)(host);
    } catch {
      throw new UnsafeUrlError(`The host '${host}' does not resolve.`);
    }
    if (addresses.length === 0) throw new UnsafeUrlError(`The host '${host}' does not resolve.`);
  }
  const refused = addresses.find((candidate) => !isAllowedAddress(candidate.address, options.allowPrivate));
  if (refused) {
    throw new UnsafeUrlError(`The host '${host}' resolves to ${refused.address}, a loopback, private, link-local or otherwise non-public address.`);
  }
  return addresses;
}

/**
 * A `lookup` for net.connect that refuses what resolveSafeAddresses refuses: the socket connects
 * to the addresses checked here and no others, so a pooled keep-alive connection is as safe as a
 * fresh one, and a DNS answer that changes after the check (rebinding) is checked again.
 */
export function guardedLookup(options: { allowPrivate: boolean; resolver?: HostResolver }): net.LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolveSafeAddresses(hostname.replace(/^\[|\]$/g, ''), options).then(
      (addresses) => {
        if (lookupOptions.all) (callback as unknown as (error: null, all: ResolvedAddress[]) => void)(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => callback(error, '', 4),
    );
  };
}
