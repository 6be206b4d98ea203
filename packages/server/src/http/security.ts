import { AppError } from '@photorelay/contract/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * CSRF defence for cookie sessions: a state-changing API call must come from our own origin
 * and carry a JSON body (which a plain HTML form cannot send cross-site).
 */
export function registerRequestGuards(app: FastifyInstance, publicUrl: string) {
  const allowedOrigin = new URL(publicUrl).origin;
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
