import { AppError } from '@photorelay/contract/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { refuseUnfitBodyText, refuseUnfitUrlText } from './text-guard.ts';

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The guards every request passes: text no field may hold (text-guard.ts), the security headers
 * of every answer, and the CSRF defence for cookie sessions: a state-changing API call must come
 * from our own origin and carry a JSON body (which a plain HTML form cannot send cross-site).
 */
export function registerRequestGuards(app: FastifyInstance, publicUrl: string) {
  const allowedOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', refuseUnfitUrlText);
  app.addHook('preValidation', refuseUnfitBodyText);
  registerSecurityHeaders(app, publicUrl);
  app.addHook('onRequest', async (request) => {
    if (!stateChanging.has(request.method) || !request.url.startsWith('/api/')) return;
    const origin = request.headers.origin;
    if (!origin || (origin !== allowedOrigin && origin !== requestOrigin(request))) {
      throw new AppError('BadOrigin', 'Cross-origin request refused');
    }
    const type = request.headers['content-type'] ?? '';
    if (!type.toLowerCase().startsWith('application/json')) {
      throw new AppError('ValidationError', 'Content-Type must be application/json', 415);
    }
  });
}

function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * The app's own files only: React and MUI need no inline script; MUI's emotion injects <style>
 * elements at run time, hence 'unsafe-inline' for styles (styles cannot run code).
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers every answer carries, also errors, 404s and the static files. */
export function securityHeaders(publicUrl: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    // Only where users reach us over https: an http PUBLIC_URL (a laptop) must keep working.
    ...(publicUrl.startsWith('https:')
      ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
      : {}),
  };
}

function registerSecurityHeaders(app: FastifyInstance, publicUrl: string) {
  const headers = securityHeaders(publicUrl);
  app.addHook('onRequest', async (request) => {
    // Source maps would publish the app's sources; the build makes none, and none is served.
    if (request.url.split('?')[0].endsWith('.map') && !request.url.startsWith('/api/')) {
      throw new AppError('NotFound');
    }
  });
  app.addHook('onSend', async (request, reply) => {
    setMissing(reply, headers);
    // API answers carry sessions, passwords, tokens and private data: never kept by a cache.
    if (request.url.startsWith('/api/')) setMissing(reply, { 'cache-control': 'no-store' });
  });
}

function setMissing(reply: FastifyReply, headers: Record<string, string>) {
  for (const [name, value] of Object.entries(headers)) if (!reply.hasHeader(name)) reply.header(name, value);
}
