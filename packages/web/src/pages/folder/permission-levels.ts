// Spec §4 'Permission levels': read; read+write; read+write+folder_admin.
import type { PermissionName } from '../../api/folders.ts';

export const levels = ['read', 'readWrite', 'admin'] as const;
export type Level = (typeof levels)[number];

const permissionsByLevel: Record<Level, PermissionName[]> = {
  read: ['read'],
  readWrite: ['read', 'write'],
  admin: ['read', 'write', 'folder_admin'],
};

export const permissionsOf = (level: Level): PermissionName[] => [...permissionsByLevel[level]];

/** The highest level found in a permission list (the edit dialog starts there); null for none. */
export function levelOf(permissions: readonly PermissionName[]): Level | null {
  if (permissions.includes('folder_admin')) return 'admin';
  if (permissions.includes('write')) return 'readWrite';
  if (permissions.includes('read')) return 'read';
  return null;
}

type Listed = { permissions: readonly PermissionName[] };
type Candidate = { dbuserid: number; email_verified: boolean };

/** Spec §5: only verified users that have no entry on the folder yet. */
export function addableUsers<T extends Candidate>(
  members: readonly T[],
  listed: readonly (Listed & { dbuserid: number })[],
) {
  const taken = new Set(listed.map((entry) => entry.dbuserid));
  return members.filter((member) => member.email_verified && !taken.has(member.dbuserid));
}

/** Spec §5: groups with all permissions (Owner, Operator) are excluded, as are listed ones. */
export function addableGroups<T extends { dbgroupid: number; has_all_permissions: boolean }>(
  groups: readonly T[],
  listed: readonly (Listed & { dbgroupid: number })[],
) {
  const taken = new Set(listed.map((entry) => entry.dbgroupid));
  return groups.filter((group) => !group.has_all_permissions && !taken.has(group.dbgroupid));
}
