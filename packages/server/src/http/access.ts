import { AppError } from '@photorelay/contract/errors';
import type { NodeRef, RouteAccess } from '@photorelay/contract/route';
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { Db } from '../db/kysely.ts';
import { resolveNodeFolder } from '../modules/folders/nodes.ts';
import { loadAccess, requirePermission, requireTeamAdmin } from '../modules/folders/permissions.ts';

// Who a team route is for is declared with the route in the contract (`RouteAccess`); the guard
// below enforces it before validation, and services check again with the same helpers.
// The permission matrix test walks `teamRouteTable`, so every new route is covered.
export {
  forMembers,
  forNode,
  forTeamAdmins,
  type NodeRef,
  type RouteAccess,
} from '@photorelay/contract/route';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess['access'];
    needs?: 'read' | 'write' | 'folder_admin';
    node?: NodeRef;
  }
}

export interface TeamRouteInfo {
  method: string;
  url: string;
  config: RouteAccess;
}
export const teamRouteTable: TeamRouteInfo[] = [];

/** Refuses at start-up a team route that does not say who it is for, and records it. */
export function recordTeamRoute(route: RouteOptions) {
  const config = route.config as RouteAccess | undefined;
  if (!config?.access) throw new Error(`team route ${String(route.method)} ${route.url} declares no access`);
  for (const method of [route.method].flat()) {
    if (method === 'HEAD') continue;
    if (!teamRouteTable.some((r) => r.method === method && r.url === route.url)) {
      teamRouteTable.push({ method, url: route.url, config });
    }
  }
}

export function enforceRouteAccess(db: Db) {
  return async (request: FastifyRequest) => {
    const config = request.routeOptions.config as RouteAccess;
    if (config.access === 'teamAdmin') requireTeamAdmin(request.member);
    if (config.access !== 'folder') return;
    const source = config.node.param
      ? (request.params as Record<string, unknown>)[config.node.param]
      : (request.body as Record<string, unknown> | undefined)?.[config.node.body ?? ''];
    // Only a canonical id (a JSON number, or decimal digits in the URL) names a node: `0x2` does not.
    const id =
      typeof source === 'number' || /^[1-9][0-9]{0,9}$/.test(String(source)) ? Number(source) : Number.NaN;
    // A malformed id names nothing the member can see.
    if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) {
      if (config.node.body) return; // leave the body's own validation to answer
      throw new AppError('NotFound');
    }
    const folderId = await resolveNodeFolder(db, request.member.teamId, config.node.kind, id);
    if (folderId === undefined) throw new AppError('NotFound');
    requirePermission(await loadAccess(db, request.member), folderId, config.needs);
  };
}
