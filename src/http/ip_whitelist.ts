// Address lists such as WHARF_MONITORING_WHITELIST (GitLab's monitoring IP whitelist): IPv4
// and IPv6 addresses and CIDR ranges, matched with node's BlockList (no parsing by hand). An
// IPv4 client seen on an IPv6 socket (`::ffff:127.0.0.1`) matches as its IPv4 address.
import net from 'node:net';

export class IpWhitelist {
  private readonly list = new net.BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, prefix] = entry.split('/');
      const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(prefix), family);
    }
  }

  allows(ip: string | undefined): boolean {
    if (!ip) return false;
    const mapped = ip.toLowerCase().startsWith('::ffff:') ? ip.slice(7) : ip;
    if (net.isIP(mapped) === 4) return this.list.check(mapped, 'ipv4') || this.list.check(ip, 'ipv6');
    return net.isIP(ip) === 6 && this.list.check(ip, 'ipv6');
  }
}
