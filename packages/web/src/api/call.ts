// Calls a route declared in the contract: the URL from its path and params, the answer parsed with
// its response schema. Fetchers in api/<area>.ts are built from these calls, never from hand-written
// URLs.
import { fillPath, type RouteInput, type TeamRoute } from '@photorelay/contract/route';
import type { z } from 'zod';
import { apiRequest, teamPath } from './client.ts';

export type CallOptions<R extends TeamRoute> = RouteInput<R> & { teamUuid: string; signal?: AbortSignal };

export function callRoute<R extends TeamRoute>(
  route: R,
  options: CallOptions<R>,
): Promise<z.output<R['response']>> {
  const { teamUuid, params, query, body, signal } = options as CallOptions<TeamRoute> & {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  let path = teamPath(teamUuid, fillPath(route.path, params));
  if (query) {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) search.set(name, String(value));
    }
    if (search.size) path += `?${search}`;
  }
  return apiRequest(route.method, path, { body, signal, schema: route.response }) as Promise<
    z.output<R['response']>
  >;
}
