import { errorResponse } from '@photorelay/contract/common';
import { errorCodes } from '@photorelay/contract/errors';
import { type AnyRoute, routeErrors } from '@photorelay/contract/route';
import type { FastifyContextConfig, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionCookie } from './session.ts';

/** The Fastify instance an area plugin receives (with the zod type provider). */
export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A request to a contract route: params, body and query typed from the route's schemas. */
export type RouteRequest<R extends AnyRoute> = FastifyRequest<{
  Params: Out<R['params']> & (R extends { team: true } ? { teamUuid: string } : unknown);
  Body: Out<R['body']>;
  Querystring: Out<R['query']>;
}>;

/** Answers the route's 200 body, or the reply itself when it sent a file (downloads). */
export type RouteHandler<R extends AnyRoute> = (
  request: RouteRequest<R>,
  reply: FastifyReply,
) => Promise<z.input<R['response']> | FastifyReply>;

/** What a route may add beyond its contract entry: its own rate limit, body limit or log level. */
export type RouteOptions = Pick<RouteShorthandOptions, 'preHandler' | 'bodyLimit' | 'logLevel'>;

/** The OpenAPI security scheme of every route that needs a session: the session cookie. */
export const sessionSecurityScheme = {
  session: { type: 'apiKey', in: 'cookie', name: sessionCookie },
} as const;

/** The answers a route documents: 200 and one error shape per status its error codes use. */
function responses(route: AnyRoute) {
  const out: Record<number, z.ZodType> = { 200: route.response };
  for (const code of routeErrors(route)) out[errorCodes[code]] = errorResponse;
  return out;
}

/**
 * Registers one contract route: a team route on a team area plugin, a user route on a plugin under
 * /api. The access guard (http/access.ts) reads a team route's `access` from its config; the answer
 * is serialized through the route's response schema, so nothing the contract does not name leaves
 * the server.
 */
export function handle<R extends AnyRoute>(
  app: ZodApp,
  route: R,
  handler: RouteHandler<R>,
  options: RouteOptions = {},
) {
  const needsSession = route.team || route.access.access === 'user';
  app.route({
    ...options,
    method: route.method,
    url: route.path,
    ...(route.team && { config: route.access as FastifyContextConfig }),
    // Only the parts the route has: Fastify warns about a schema key that is present but empty.
    schema: {
      security: needsSession ? [{ session: [] }] : [],
      response: responses(route),
      ...(route.summary && { summary: route.summary }),
      ...(route.params && {
        params: route.team ? route.params.extend({ teamUuid: z.string() }) : route.params,
      }),
      ...(route.query && { querystring: route.query }),
      ...(route.body && { body: route.body }),
    },
    handler: handler as never,
  });
}
