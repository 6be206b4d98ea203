import type { Socket } from 'node:net';
import { AppError, isErrorCode } from '@photorelay/contract/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/**
 * Fastify's and Node's own refusals in the catalogue's `{error, message}` shape: a malformed or
 * too long URL (Fastify's router) and what Node's HTTP parser refuses before Fastify sees it
 * (oversized headers 431, a malformed request 400). Handed to Fastify() as options, with the
 * security headers (securityHeaders in security.ts).
 */
export const frameworkErrorAnswers = (headers: Record<string, string>) => ({
  frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
    // Answered before the hooks run: the security headers are set here.
    reply.headers(headers);
    const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    const status = tooLong ? 414 : 400;
    const message = tooLong ? 'The address is too long' : 'The address is not valid';
    return reply.status(status).send({ error: 'ValidationError', message });
  },
  clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The request headers are too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request took too long']
          : [400, 'Bad Request', 'The request is not valid HTTP'];
    const body = JSON.stringify({ error: 'ValidationError', message });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  },
});
