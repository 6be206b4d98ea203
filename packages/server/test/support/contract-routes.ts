// Every route the contract declares, found by walking the exports of each area's contract file, with
// the URL the server registers it under. The OpenAPI test and the permission matrix compare the
// server's routes with this list, so a route written by hand (not from the contract) is noticed.
import * as account from '@photorelay/contract/account';
import * as calendar from '@photorelay/contract/calendar';
import * as commands from '@photorelay/contract/commands';
import * as configfiles from '@photorelay/contract/configfiles';
import * as externalcalendars from '@photorelay/contract/externalcalendars';
import * as folders from '@photorelay/contract/folders';
import * as ftpservers from '@photorelay/contract/ftpservers';
import * as jobs from '@photorelay/contract/jobs';
import * as metadata from '@photorelay/contract/metadata';
import * as projects from '@photorelay/contract/projects';
import type { AnyRoute } from '@photorelay/contract/route';
import * as scripts from '@photorelay/contract/scripts';
import * as settings from '@photorelay/contract/settings';
import * as teams from '@photorelay/contract/teams';

const areas = {
  account,
  calendar,
  commands,
  configfiles,
  externalcalendars,
  folders,
  ftpservers,
  jobs,
  metadata,
  projects,
  scripts,
  settings,
  teams,
};

const isRoute = (value: unknown): value is AnyRoute =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as AnyRoute).team === 'boolean' &&
  typeof (value as AnyRoute).method === 'string' &&
  typeof (value as AnyRoute).path === 'string';

/** Routes found in an export: a route itself, or an object grouping routes (e.g. `moveRoutes`). */
function routesIn(value: unknown, depth = 0): AnyRoute[] {
  if (isRoute(value)) return [value];
  if (depth > 2 || typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.values(value).flatMap((inner) => routesIn(inner, depth + 1));
}

/** The URL a route is registered under (Fastify syntax). */
export const serverUrl = (route: AnyRoute) =>
  route.team ? `/api/:teamUuid${route.path}` : `/api${route.path}`;
export const routeKey = (method: string, url: string) => `${method} ${url}`;

/** Each declared route once, keyed by `METHOD /api/...` as the server registers it. */
export function contractRoutes(): Map<string, AnyRoute> {
  const found = new Map<string, AnyRoute>();
  for (const module of Object.values(areas)) {
    for (const route of Object.values(module).flatMap((value) => routesIn(value))) {
      found.set(routeKey(route.method, serverUrl(route)), route);
    }
  }
  return found;
}

/** Routes the server still registers by hand: none now (kept so a future exception is named here). */
export const notYetInContract = new Set<string>();
/**
 * The spec's slash-less spelling of the invitation confirm, served with the contract entry of
 * `/calendar/suggestentries/:ciid/confirm`.
 */
export const aliases = new Map([
  ['POST /api/calendar/suggestentries:ciid/confirm', 'POST /api/calendar/suggestentries/:ciid/confirm'],
]);
