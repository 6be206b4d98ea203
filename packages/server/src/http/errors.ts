import { AppError, isErrorCode } from '@photorelay/contract/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** One place that turns every failure into the spec's `{ error: code }` answer. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ error: error.code, message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const message = error.validation
        .map((v) => `${v.instancePath.replace(/^\//, '') || error.validationContext}: ${v.message}`)
        .join('; ');
      return reply.status(400).send({ error: 'ValidationError', message });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ error: 'TooManyRequests' });
    if (status === 413) return reply.status(413).send({ error: 'PayloadTooLarge', message: error.message });
    if (status < 500) {
      const code = isErrorCode(error.code) ? error.code : 'ValidationError';
      return reply.status(status).send({ error: code, message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'InternalError' });
  });
}

/** Unknown API paths answer 404 NotFound; other GETs get the web app, which routes on the client. */
export function registerNotFound(app: FastifyInstance, indexHtml: Buffer | null) {
  app.setNotFoundHandler((request, reply) => {
    if (indexHtml && request.method === 'GET' && !request.url.startsWith('/api/')) {
      return reply.type('text/html').header('cache-control', 'no-cache').send(indexHtml);
    }
    return reply
      .status(404)
      .send({ error: 'NotFound', message: `${request.method} ${request.url.split('?')[0]}` });
  });
}
