/**
 * Where a webhook may send: http or https to a public address. A receiver's host is resolved (every address it
 * has) when the webhook is created and again on each connection, so that a name which later points inside the
 * network (DNS rebinding) is refused where the connection is made, not only where the URL was checked.
 * Loopback, private, link-local, carrier-grade NAT, multicast, unspecified and other special-purpose ranges
 * are refused unless the deployment allows them (`COMPLY_WEBHOOK_ALLOW_PRIVATE=true`: receivers on the same
 * network, tests).
 */

import type { LookupAddress, LookupOptions } from 'node:dns';
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** How long resolving a receiver's host may take when a webhook is created. */
const RESOLVE_TIMEOUT_MS = 5000;

export class AddressRefusedError extends Error {
  constructor(
    message: string,
    readonly reason: 'protocol' | 'credentials' | 'private_address' | 'unresolvable',
  ) {
    super(message);
  }
}

/** The range an address falls in, as ipaddr.js names it; `unicast` is a public address. */
export function rangeOf(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address().range();
  }
  return parsed.range();
}

export const isPublicAddress = (address: string) => rangeOf(address) === 'unicast';

function refusePrivate(host: string, address: string): AddressRefusedError {
  return new AddressRefusedError(
    `${host} resolves to ${address} (${rangeOf(address)}), not a public address; ` +
      'set COMPLY_WEBHOOK_ALLOW_PRIVATE=true to deliver inside the network',
    'private_address',
  );
}

/** The URL's host as the resolver and the IP parser take it: IPv6 literals lose their brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Checks the form of a receiver's URL: http or https, without credentials. */
export function parseReceiverUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AddressRefusedError('is not a valid URL', 'protocol');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AddressRefusedError(
      `must use http or https, not ${url.protocol.replace(/:$/, '')}`,
      'protocol',
    );
  }
  if (url.username || url.password) {
    throw new AddressRefusedError(
      'must not carry credentials: receivers authenticate deliveries by their signature',
      'credentials',
    );
  }
  return url;
}

async function resolveAll(host: string): Promise<string[]> {
  if (net.isIP(host)) return [host];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AddressRefusedError(`${host} did not resolve in time`, 'unresolvable')),
      RESOLVE_TIMEOUT_MS,
    );
  });
  try {
    const addresses = await Promise.race([dns.promises.lookup(host, { all: true, verbatim: true }), timeout]);
    return addresses.map((entry) => entry.address);
  } catch (error) {
    if (error instanceof AddressRefusedError) throw error;
    throw new AddressRefusedError(`${host} does not resolve`, 'unresolvable');
  } finally {
    clearTimeout(timer);
  }
}

/** Checks a receiver's URL and every address its host resolves to now. */
export async function checkReceiver(raw: string, allowPrivate: boolean): Promise<URL> {
  const url = parseReceiverUrl(raw);
  const host = hostOf(url);
  const addresses = await resolveAll(host);
  if (!allowPrivate) {
    const refused = addresses.find((address) => !isPublicAddress(address));
    if (refused) throw refusePrivate(host, refused);
  }
  return url;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http that resolves as usual and refuses a host any of whose addresses is not public:
 * the check happens on the connection itself. (An IP literal is never looked up: check it with
 * `checkReceiver` first.)
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, []);
      const refused = allowPrivate ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
      if (refused) return callback(refusePrivate(hostname, refused.address) as NodeJS.ErrnoException, []);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      callback(null, first.address, first.family);
    });
  };
}
