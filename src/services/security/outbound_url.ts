// Which addresses Wharf may connect to on a user's behalf (webhooks, a project export's upload
// URL; project import by URL checks each hop with security/import_url_guard.ts, which takes its
// local addresses from here): GitLab 10.8's UrlBlocker, checked where it matters — on the address the name
// resolves to at connection time, so that a name that resolved to a public address when the
// hook was saved and to 127.0.0.1 when it is called (DNS rebinding) is still refused.
//
// Refused unless local requests are allowed (`allow_local_requests_from_hooks_and_services`):
// loopback (127/8, ::1), "this host" (0.0.0.0/8, ::), link-local (169.254/16 — cloud metadata —
// and fe80::/10), private (10/8, 172.16/12, 192.168/16), carrier-grade NAT (100.64/10),
// unique-local IPv6 (fc00::/7), every address of this host's own network interfaces (10.8's
// `Socket.ip_address_list`: a public address the server listens on is the server itself), and
// IPv4-mapped / IPv4-compatible IPv6 forms of any of them. The interfaces are read at each
// check (os.networkInterfaces()), as addresses come and go while the server runs.
//
// API (small on purpose; import nothing else from here):
//   assertPublicAddress(address)       throws BlockedAddress unless the literal IP is public
//   isPublicAddress(address)           the same as a boolean
//   guardedLookup(allowLocal)          a `lookup` for http.request / https.request / net.connect
//                                      that resolves the name and refuses a blocked address
//   assertAllowedUrl(url, allowLocal)  scheme http/https, and a literal IP host checked at once
//                                      (for a name, the lookup checks at connection time)
import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import type { LookupFunction } from 'node:net';

/** The refusal; its message is what the hook's log records. */
export class BlockedAddress extends Error {
  constructor(readonly address: string) {
    super(`Requests to the local network are not allowed (${address})`);
    this.name = 'BlockedAddress';
  }
}

const blocked = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  blocked.addSubnet(net4, prefix, 'ipv4');
}
blocked.addAddress('::', 'ipv6');
blocked.addAddress('::1', 'ipv6');
blocked.addSubnet('fe80::', 10, 'ipv6');
blocked.addSubnet('fc00::', 7, 'ipv6');
blocked.addSubnet('ff00::', 8, 'ipv6'); // multicast

/**
 * The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d)
 * IPv6 address, whatever its spelling (URL parsing canonicalises ::ffff:127.0.0.1 to
 * ::ffff:7f00:1); null for any other IPv6 address.
 */
function embeddedIpv4(address: string): string | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  let rest: string;
  if (canonical.startsWith('::ffff:')) rest = canonical.slice(7);
  else if (canonical.startsWith('::')) rest = canonical.slice(2);
  else return null;
  const groups = rest === '' ? [] : rest.split(':');
  if (groups.length > 2) return null;
  while (groups.length < 2) groups.unshift('0');
  const [hi, lo] = groups.map((g) => parseInt(g, 16));
  if (!Number.isInteger(hi) || !Number.isInteger(lo)) return null;
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** The addresses of this host's interfaces right now (BlockList compares IPv6 whatever its spelling). */
function ownAddresses(): net.BlockList {
  const own = new net.BlockList();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) {
      const family = a.family === 'IPv4' ? 'ipv4' : 'ipv6';
      if (net.isIP(a.address)) own.addAddress(a.address, family);
    }
  }
  return own;
}

function isBlocked(address: string, family: 'ipv4' | 'ipv6'): boolean {
  return blocked.check(address, family) || ownAddresses().check(address, family);
}

/** Whether `address` (a literal IP) is one Wharf may connect to without the local setting. */
export function isPublicAddress(address: string): boolean {
  const kind = net.isIP(address);
  if (kind === 4) return !isBlocked(address, 'ipv4');
  if (kind !== 6) return false; // not an address at all: refuse
  const v4 = embeddedIpv4(address);
  if (v4 !== null) return !isBlocked(v4, 'ipv4');
  return !isBlocked(address, 'ipv6');
}

/** Throws BlockedAddress unless `address` (a literal IP) is public. */
export function assertPublicAddress(address: string): void {
  if (!isPublicAddress(address)) throw new BlockedAddress(address);
}

/**
 * A `lookup` for node's http/https/net: resolves as dns.lookup does, then refuses (with
 * BlockedAddress) when any resolved address is blocked and local requests are not allowed.
 */
export function guardedLookup(allowLocal: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      if (!allowLocal) {
        const bad = list.find((a) => !isPublicAddress(a.address));
        if (bad) return callback(new BlockedAddress(bad.address) as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Throws BlockedAddress for a URL Wharf must not call: a scheme other than http/https, or a
 * literal IP host that is blocked (names are checked by guardedLookup when connecting).
 */
export function assertAllowedUrl(url: URL, allowLocal: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedAddress(url.protocol);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!allowLocal && net.isIP(host)) assertPublicAddress(host);
}
