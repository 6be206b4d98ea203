// Each route of spec §7 is declared once, here in the contract: method, path, params, query, body,
// answer, error answers and who may call it. The server registers these objects (http/route.ts),
// the web calls them (api/call.ts), and the permission matrix walks the routes the server holds.
// Team routes (`teamRoute`) live under /api/:teamUuid; the few outside a team (`userRoute`: login,
// registration, the profile, public settings) directly under /api.
// A small helper of our own rather than ts-rest or oRPC: both bring their own router and request
// pipeline, and our access guard (folder permissions resolved from a path parameter or a body
// field before validation) would have to be re-expressed as their middleware.
import type { z } from 'zod';
import type { ErrorCode } from './errors.ts';

export type NodeKind = 'folder' | 'project' | 'ftpserver' | 'calendar';
export type FolderPermissionLevel = 'read' | 'write' | 'folder_admin';

/** The node a folder-permission check resolves: named by a path parameter or a body field. */
export interface NodeRef {
  kind: NodeKind;
  param?: string;
  body?: string;
}

/**
 * Who a team route is for; the server's guard enforces it before validation:
 * - member: every member of the team;
 * - teamAdmin: Owner and Operator; others get MissingPermission;
 * - folder: the folder permission `needs` on the node named by `node`.
 */
export type RouteAccess =
  | { access: 'member' }
  | { access: 'teamAdmin' }
  | { access: 'folder'; needs: FolderPermissionLevel; node: NodeRef };

export const forMembers = { access: 'member' } as const;
export const forTeamAdmins = { access: 'teamAdmin' } as const;
export const forNode = (needs: FolderPermissionLevel, node: NodeRef) =>
  ({ access: 'folder', needs, node }) as const;

/**
 * Who a route outside a team is for: anyone (login, registration, public settings), or a signed-in
 * user (the handler takes the user with `requireUser`, after validation; logged out: NotLoggedIn).
 */
export type UserAccess = { access: 'public' } | { access: 'user' };
export const forAnyone = { access: 'public' } as const;
export const forUsers = { access: 'user' } as const;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteSpec {
  method: HttpMethod;
  /** Fastify syntax (`/ftpserver/:id`); relative to `/api/:teamUuid` for team routes. */
  path: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The 200 answer. */
  response: z.ZodType;
  /** Error answers beyond the ones every route of its kind has (see `commonErrors`). */
  errors?: readonly ErrorCode[];
  summary?: string;
}

export interface TeamRouteSpec extends RouteSpec {
  access: RouteAccess;
}
export type TeamRoute<R extends TeamRouteSpec = TeamRouteSpec> = R & { team: true };

export interface UserRouteSpec extends RouteSpec {
  access: UserAccess;
}
export type UserRoute<R extends UserRouteSpec = UserRouteSpec> = R & { team: false };
/** A route of either kind, as the server registers and the web calls it. */
export type AnyRoute = TeamRoute | UserRoute;

/** Every team route can answer these: bad input, no session, no permission, not found. */
export const commonTeamErrors = ['ValidationError', 'NotLoggedIn', 'MissingPermission', 'NotFound'] as const;
/** Every route outside a team can refuse bad input; one for signed-in users also answers NotLoggedIn. */
export const commonUserErrors = ['ValidationError'] as const;

/** The error codes a route documents: those of its kind, its access, and its own. */
export function routeErrors(route: AnyRoute): readonly ErrorCode[] {
  const common: readonly ErrorCode[] = route.team
    ? commonTeamErrors
    : route.access.access === 'user'
      ? [...commonUserErrors, 'NotLoggedIn']
      : commonUserErrors;
  return [...new Set([...common, ...(route.errors ?? [])])];
}

/** A team-scoped route: `path` is relative to `/api/:teamUuid`; `params` excludes teamUuid. */
export const teamRoute = <const R extends TeamRouteSpec>(route: R): TeamRoute<R> => ({
  ...route,
  team: true,
});

/** A route outside a team: `path` is relative to `/api`. */
export const userRoute = <const R extends UserRouteSpec>(route: R): UserRoute<R> => ({
  ...route,
  team: false,
});

/** Path parameters travel as text: an id may be given as a number or as its decimal string. */
type PathValues<T> = { [K in keyof T]: T[K] | number };

/** The values of a route's path parameters, body and query, as a caller sends them. */
export type RouteInput<R extends RouteSpec> = (R['params'] extends z.ZodObject
  ? { params: PathValues<z.input<R['params']>> }
  : { params?: undefined }) &
  (R['query'] extends z.ZodObject ? { query: z.input<R['query']> } : { query?: undefined }) &
  (R['body'] extends z.ZodType ? { body: z.input<R['body']> } : { body?: undefined });

/**
 * The route's path with its parameters filled in, without a leading slash. Each value is encoded;
 * commas stay readable (`parent,child` property ids), they separate nothing in a path segment.
 */
export function fillPath(path: string, params: Record<string, unknown> = {}) {
  return path.replace(/^\//, '').replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value)).replaceAll('%2C', ',');
  });
}
