// Which URLs a repository may be imported from (GitLab 10.8's Gitlab::UrlBlocker and the
// project's import_url validation): `http`, `https` or `git` URLs only; and, unless the
// `allow_local_requests_from_hooks_and_services` setting is on, none whose host resolves to a
// loopback, link-local, private, unique-local, unspecified, multicast or broadcast address —
// decided on the resolved addresses, not the name, and again at every redirect (the caller
// checks each hop; services/project_url_import.ts). Credentials in the URL are allowed and
// never repeated in a message (`redactUrl`).
//
// NOTE for the lead: the webhooks helper is writing an outbound-address check of its own at
// the same time; this file is the import's, to be unified with theirs.
import dns from 'node:dns/promises';
import net from 'node:net';

export const IMPORT_PROTOCOLS = ['http:', 'https:', 'git:'];

/** The URL without its user and password, for messages and the stored import_url. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(an invalid URL)';
  }
}

/** The validation error of an import URL's form, or null (GitLab's "is blocked: …" / "must be a valid URL"). */
export function importUrlFormatError(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'must be a valid URL';
  }
  if (!IMPORT_PROTOCOLS.includes(u.protocol)) return 'is blocked: Only allowed protocols are http, https, git';
  if (!u.hostname) return 'must be a valid URL';
  return null;
}

function ipv4Local(a: number[]): boolean {
  const [x, y] = a;
  return x === 0 || x === 10 || x === 127 || (x === 169 && y === 254) || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 100 && y >= 64 && y <= 127) || x >= 224;
}

/** Whether an address is one an import may not reach without the setting. */
export function isLocalAddress(address: string): boolean {
  if (net.isIPv4(address)) return ipv4Local(address.split('.').map(Number));
  if (!net.isIPv6(address)) return true;
  const lower = address.toLowerCase();
  const mapped = lower.startsWith('::ffff:') ? lower.slice(7) : null;
  if (mapped && net.isIPv4(mapped)) return ipv4Local(mapped.split('.').map(Number));
  if (lower === '::' || lower === '::1') return true;
  const first = parseInt(lower.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00;
}

/** The addresses `host` resolves to, each checked; throws with GitLab's words when one is local. */
export async function resolveAllowed(host: string, allowLocal: boolean): Promise<string[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  let addresses: string[];
  try {
    addresses = net.isIP(bare) ? [bare] : (await dns.lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw new Error(`Import url is blocked: Host cannot be resolved`);
  }
  if (addresses.length === 0) throw new Error('Import url is blocked: Host cannot be resolved');
  if (!allowLocal && addresses.some(isLocalAddress)) throw new Error('Import url is blocked: Requests to the local network are not allowed');
  return addresses;
}
