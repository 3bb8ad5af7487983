// Which URLs a repository may be imported from (GitLab 10.8's Gitlab::UrlBlocker and the
// project's import_url validation): `http`, `https` or `git` URLs only; and, unless the
// `allow_local_requests_from_hooks_and_services` setting is on, none whose host resolves to a
// loopback, link-local, private, unique-local, unspecified, multicast or broadcast address, nor
// any address of this host's own interfaces — decided on the resolved addresses, not the name,
// and again at every redirect (the caller checks each hop; services/import_export/project_url_import.ts). Credentials in the URL are allowed and
// never repeated in a message (`redactUrl`).
// Which addresses are local is security/outbound_url.ts's one list, shared with webhooks.
import dns from 'node:dns/promises';
import net from 'node:net';
import { isPublicAddress } from './outbound_url.js';

const IMPORT_PROTOCOLS = ['http:', 'https:', 'git:'];

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

/** Whether an address is one an import may not reach without the setting (security/outbound_url.ts decides, for hooks too). */
export function isLocalAddress(address: string): boolean {
  return !isPublicAddress(address);
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
