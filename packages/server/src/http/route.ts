import { errorResponse } from '@photorelay/contract/common';
import { type ErrorCode, errorCodes } from '@photorelay/contract/errors';
import { commonTeamErrors, type TeamRoute } from '@photorelay/contract/route';
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionCookie } from './session.ts';

/** The Fastify instance an area plugin receives (with the zod type provider). */
export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A request to a contract route: params, body and query typed from the route's schemas. */
export type RouteRequest<R extends TeamRoute> = FastifyRequest<{
  Params: Out<R['params']> & { teamUuid: string };
  Body: Out<R['body']>;
  Querystring: Out<R['query']>;
}>;

export type RouteHandler<R extends TeamRoute> = (
  request: RouteRequest<R>,
  reply: FastifyReply,
) => Promise<z.input<R['response']>>;

/** The OpenAPI security scheme of every team route: the session cookie. */
export const sessionSecurityScheme = {
  session: { type: 'apiKey', in: 'cookie', name: sessionCookie },
} as const;

/** The answers a route documents: 200 and one error shape per status its error codes use. */
function responses(route: TeamRoute) {
  const out: Record<number, z.ZodType> = { 200: route.response };
  const codes: readonly ErrorCode[] = [...commonTeamErrors, ...(route.errors ?? [])];
  for (const code of codes) out[errorCodes[code]] = errorResponse;
  return out;
}

/**
 * Registers one contract route on a team area plugin. The access guard (http/access.ts) reads the
 * route's `access` from its config; the answer is serialized through the route's response schema,
 * so nothing the contract does not name leaves the server.
 */
export function handle<R extends TeamRoute>(app: ZodApp, route: R, handler: RouteHandler<R>) {
  app.route({
    method: route.method,
    url: route.path,
    config: route.access as FastifyContextConfig,
    // Only the parts the route has: Fastify warns about a schema key that is present but empty.
    schema: {
      security: [{ session: [] }],
      response: responses(route),
      ...(route.summary && { summary: route.summary }),
      ...(route.params && { params: route.params.extend({ teamUuid: z.string() }) }),
      ...(route.query && { querystring: route.query }),
      ...(route.body && { body: route.body }),
    },
    handler: handler as never,
  });
}
