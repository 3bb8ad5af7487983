// This machine's own non-loopback interface address (os.networkInterfaces()), for the tests
// that check GitLab 10.8's UrlBlocker refuses the host's own addresses like loopback: a
// listener bound there is this machine's, so no test traffic ever leaves it.
import net from 'node:net';
import os from 'node:os';

/** The first non-internal IPv4 interface address, else a non-internal, non-link-local IPv6 one; null when there is none. */
export function hostInterfaceAddress(): string | null {
  const all = Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal);
  const v4 = all.find((a) => a.family === 'IPv4');
  if (v4) return v4.address;
  const v6 = all.find((a) => a.family === 'IPv6' && !a.address.toLowerCase().startsWith('fe80:'));
  return v6 ? v6.address : null;
}

/** `address` as a URL host: IPv6 in brackets. */
export function urlHost(address: string): string {
  return net.isIPv6(address) ? `[${address}]` : address;
}
