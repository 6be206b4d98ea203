import crypto from 'node:crypto';
import net from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Metrics name destinations and volumes: not for the public. With METRICS_TOKEN set, a bearer
 * token opens them (a Prometheus on another host); without it only loopback clients get them.
 * `request.ip` honours TRUST_PROXY, so a request passed on by a local reverse proxy counts as its
 * real client, not as loopback.
 */
export function metricsAllowed(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const a = crypto.createHash('sha256').update(given).digest();
    const b = crypto.createHash('sha256').update(token).digest();
    return crypto.timingSafeEqual(a, b);
  }
  return isLoopback(request.ip);
}

function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (net.isIPv4(v4)) return v4.startsWith('127.');
  return address === '::1';
}
