import net from 'node:net';

/** '::ffff:1.2.3.4' (IPv4 on a dual-stack socket) as '1.2.3.4', for logs and per-address throttling. */
export function normalizeAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}
