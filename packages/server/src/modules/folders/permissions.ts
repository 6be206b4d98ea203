import { AppError } from '@photorelay/contract/errors';
import type { Db } from '../../db/kysely.ts';
import type { Permission } from '../../db/schema.ts';
import type { Member } from '../teams/service.ts';
import * as q from './queries.ts';

/**
 * The one answer to "may this member do X to this node?". Owner and Operator (groups with
 * has_all_permissions) may do everything; anyone else holds, on a folder, the union of the
 * rights given to them and to their group on that folder and all its ancestors.
 */
export interface Access {
  member: Member;
  all: boolean;
  on(folderId: number): ReadonlySet<Permission>;
  can(folderId: number, permission: Permission): boolean;
}

const everything: ReadonlySet<Permission> = new Set(['read', 'write', 'folder_admin']);
const nothing: ReadonlySet<Permission> = new Set();

export async function loadAccess(db: Db, member: Member): Promise<Access> {
  if (member.hasAllPermissions) {
    return { member, all: true, on: () => everything, can: () => true };
  }
  const [folders, grants] = await Promise.all([
    q.listFolderParents(db, member.teamId),
    q.listMemberPermissions(db, member.teamId, member.userId, member.groupId),
  ]);
  const parentOf = new Map(folders.map((f) => [f.id, f.parent_id]));
  const direct = new Map<number, Permission[]>();
  for (const g of grants) direct.set(g.folder_id, [...(direct.get(g.folder_id) ?? []), ...g.permissions]);

  const effective = new Map<number, ReadonlySet<Permission>>();
  const on = (folderId: number): ReadonlySet<Permission> => {
    const known = effective.get(folderId);
    if (known) return known;
    if (!parentOf.has(folderId)) return nothing;
    const parent = parentOf.get(folderId);
    const inherited = parent === null || parent === undefined ? nothing : on(parent);
    const own = direct.get(folderId) ?? [];
    const result = own.length ? new Set([...inherited, ...own]) : inherited;
    effective.set(folderId, result);
    return result;
  };
  return { member, all: false, on, can: (folderId, permission) => on(folderId).has(permission) };
}

/**
 * Checks a right on the folder an item lives in: a node the member cannot read does not exist
 * for them (404); one they can read but not change answers MissingPermission.
 */
export function requirePermission(access: Access, folderId: number, permission: Permission) {
  if (!access.can(folderId, 'read')) throw new AppError('NotFound');
  if (!access.can(folderId, permission)) throw new AppError('MissingPermission');
}

/** Team-wide administration (users, groups, config files) is for Owner and Operator only. */
export function requireTeamAdmin(member: Member) {
  if (!member.hasAllPermissions) throw new AppError('MissingPermission');
}

/** Levels of the folder page: read; read+write; read+write+folder_admin. */
export function normalizePermissions(list: readonly Permission[]): Permission[] {
  const set = new Set(list);
  if (set.has('folder_admin')) return ['read', 'write', 'folder_admin'];
  if (set.has('write')) return ['read', 'write'];
  if (set.has('read')) return ['read'];
  return [];
}
