import dns from 'node:dns/promises';
import net from 'node:net';

/**
 * Outbound connections to hosts users typed in (FTP/SFTP destinations, calendar URLs) must
 * not reach the server's own network unless ALLOW_PRIVATE_NETWORKS=1: otherwise a user could
 * make us talk to a database, a metadata service or an admin port. The host is resolved here
 * and the caller connects to the returned address, so a second DNS answer cannot differ
 * (rebinding). Every address the name has must be public; one private answer refuses it all.
 */

export class OutboundAddressError extends Error {}

const v4Blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  v4Blocked.addSubnet(prefix, bits, 'ipv4');
}

const v6Blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates to the operator's own IPv4 networks
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  v6Blocked.addSubnet(prefix, bits, 'ipv6');
}

function hextets(ip: string): number[] {
  // Expand '::' and an embedded dotted IPv4 tail into eight 16-bit groups.
  let text = ip;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail !== undefined && tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g, 16));
}

function embeddedIPv4(ip: string): string | undefined {
  const g = hextets(ip);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return v4(g[6], g[7]); // ::ffff:a.b.c.d (mapped)
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return v4(g[6], g[7]); // ::ffff:0:a.b.c.d (translated, RFC 2765)
  if (zeros(6)) return v4(g[6], g[7]); // ::a.b.c.d (old compatible form)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6], g[7]); // NAT64
  if (g[0] === 0x2002) return v4(g[1], g[2]); // 6to4
  return undefined;
}

/** True when the address is loopback, private, link-local, CGNAT, unique-local, multicast or otherwise not public. */
export function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return v4Blocked.check(ip, 'ipv4');
  if (!net.isIPv6(ip)) return true;
  const inner = embeddedIPv4(ip);
  if (inner && inner !== '0.0.0.0') return v4Blocked.check(inner, 'ipv4');
  return v6Blocked.check(ip, 'ipv6');
}

/**
 * Resolves `host` and returns the address to connect to. Throws OutboundAddressError with a
 * text fit for the user when the name does not resolve or (unless allowed) points to a
 * loopback or private network.
 */
export async function assertAllowedHost(
  host: string,
  options: { allowPrivateNetworks: boolean },
): Promise<string> {
  const name = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (!name) throw new OutboundAddressError('Host is empty');
  let addresses: string[];
  if (net.isIP(name)) {
    addresses = [name];
  } else {
    try {
      addresses = (await dns.lookup(name, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new OutboundAddressError(`Host ${name} not found`);
    }
    if (addresses.length === 0) throw new OutboundAddressError(`Host ${name} not found`);
  }
  if (!options.allowPrivateNetworks) {
    const blocked = addresses.find(isPrivateAddress);
    if (blocked) {
      throw new OutboundAddressError(
        `Host ${name} (${blocked}) is a local or private network address; connections there are not allowed`,
      );
    }
  }
  return addresses[0];
}
