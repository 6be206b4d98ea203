// Calls a route declared in the contract: the URL from its path and params, the answer parsed with
// its response schema. Fetchers in api/<area>.ts are built from these calls, never from hand-written
// URLs.
import { type AnyRoute, fillPath, type RouteInput, type TeamRoute } from '@photorelay/contract/route';
import type { z } from 'zod';
import { apiRequest, teamPath } from './client.ts';

/** A team route needs the team; a route outside a team takes none. */
type TeamOf<R extends AnyRoute> = R extends TeamRoute ? { teamUuid: string } : { teamUuid?: undefined };
export type CallOptions<R extends AnyRoute> = RouteInput<R> & TeamOf<R> & { signal?: AbortSignal };
type LooseOptions = {
  teamUuid?: string;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  signal?: AbortSignal;
};

/** The route's path under /api/ with its parameters and query filled in (no leading slash). */
function apiPath(route: AnyRoute, options: LooseOptions) {
  const { teamUuid, params, query } = options;
  const filled = fillPath(route.path, params);
  let path = route.team ? teamPath(teamUuid ?? '', filled) : filled;
  if (query) {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) search.set(name, String(value));
    }
    if (search.size) path += `?${search}`;
  }
  return path;
}

/** The route's absolute URL: for links (downloads) and requests that outlive the page. */
export const routeUrl = <R extends AnyRoute>(route: R, options: Omit<CallOptions<R>, 'body' | 'signal'>) =>
  `/api/${apiPath(route, options as LooseOptions)}`;

export function callRoute<R extends AnyRoute>(
  route: R,
  options: CallOptions<R>,
): Promise<z.output<R['response']>> {
  const loose = options as LooseOptions;
  return apiRequest(route.method, apiPath(route, loose), {
    body: loose.body,
    signal: loose.signal,
    schema: route.response,
  }) as Promise<z.output<R['response']>>;
}
