import type { TreeNode } from '@photorelay/contract/folders';
import type { FolderType, GroupName, Permission } from '../../db/schema.ts';
import { localizedGroupName } from '../teams/service.ts';
import type { Access } from './permissions.ts';
import type { TreeRow } from './queries.ts';

type PermissionRow = {
  folder_id: number;
  user_id: number | null;
  group_id: number | null;
  permissions: Permission[];
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  group_name: string | null;
};

/**
 * Addresses are for the team's user admins (Owner, Operator); a folder admin who is not one sees
 * the member's name in their place (issue 10 item 14).
 */
const userLabel = (p: PermissionRow, showAddresses: boolean) =>
  showAddresses ? (p.email ?? '') : `${p.first_name ?? ''} ${p.last_name ?? ''}`.trim() || `#${p.user_id}`;

const rootOrder: Record<string, number> = { projects: 0, ftpservers: 1, calendars: 2, settings: 3 };
// Spec §2: projects and FTP servers (and their folders) before other items, then by name.
const itemRank = (n: TreeNode) =>
  n.type === 'project' || n.type === 'ftpserver' || n.folderType !== null ? 0 : 1;
// One collator for all comparisons: localeCompare with options builds one per call (10x slower).
const collator = new Intl.Collator(undefined, { sensitivity: 'base' });
const byRankThenName = (a: TreeNode, b: TreeNode) =>
  itemRank(a) - itemRank(b) || collator.compare(a.name, b.name) || a.id - b.id;

/**
 * Builds the drawer tree from the flat rows of one query, keeping only what the member may read
 * (and the folders on the way to it, so the path stays visible).
 */
export function buildTree(rows: TreeRow[], permissionRows: PermissionRow[], access: Access): TreeNode[] {
  const permissionsOf = new Map<number, TreeNode['permissions']>();
  for (const p of permissionRows) {
    const entry = permissionsOf.get(p.folder_id) ?? { users: [], groups: [] };
    if (p.user_id !== null)
      entry.users.push({ dbuserid: p.user_id, email: userLabel(p, access.all), permissions: p.permissions });
    if (p.group_id !== null) {
      const name = (p.group_name ?? 'Photographer') as GroupName;
      entry.groups.push({
        dbgroupid: p.group_id,
        name,
        localizedName: localizedGroupName[name],
        permissions: p.permissions,
      });
    }
    permissionsOf.set(p.folder_id, entry);
  }

  const folders = new Map<number, TreeNode>();
  const items: Array<{ node: TreeNode; folderId: number }> = [];
  for (const row of rows) {
    const folderId = row.kind === 'folder' ? row.id : (row.parent_id as number);
    const rights = access.on(folderId);
    const node: TreeNode = {
      key: `${row.kind}-${row.id}`,
      id: row.id,
      name: row.name,
      type: row.kind === 'folder' ? ((row.type as FolderType) ?? 'folders') : row.kind,
      folderType: row.kind === 'folder' ? (row.type as FolderType) : null,
      parent: row.parent_id ?? -1,
      isRoot: row.kind === 'folder' && row.parent_id === null,
      isFolderAdmin: rights.has('folder_admin'),
      canWrite: rights.has('write'),
      permissions:
        row.kind === 'folder' && rights.has('folder_admin')
          ? (permissionsOf.get(row.id) ?? { users: [], groups: [] })
          : { users: [], groups: [] },
      children: [],
    };
    if (row.kind === 'folder') folders.set(row.id, node);
    else items.push({ node, folderId });
  }

  const visible = new Set<number>();
  const markPath = (id: number | null) => {
    for (let at = id; at !== null && at !== -1 && !visible.has(at); at = folders.get(at)?.parent ?? null)
      visible.add(at);
  };
  for (const [id] of folders) if (access.can(id, 'read')) markPath(id);

  for (const { node, folderId } of items) {
    if (!access.can(folderId, 'read')) continue;
    folders.get(folderId)?.children.push(node);
  }
  const roots: TreeNode[] = [];
  for (const [id, node] of folders) {
    if (!visible.has(id)) continue;
    if (node.isRoot) roots.push(node);
    else folders.get(node.parent)?.children.push(node);
  }
  // The settings root holds the team's user management and config files (Owner and Operator).
  const settings = roots.find((r) => r.type === 'settings');
  if (settings && access.all) {
    settings.children.push(leaf(settings, 'users'), leaf(settings, 'configfiles'));
  }
  const sortDeep = (nodes: TreeNode[]) => {
    nodes.sort(byRankThenName);
    for (const n of nodes) sortDeep(n.children);
  };
  for (const r of roots) sortDeep(r.children);
  roots.sort((a, b) => (rootOrder[a.type] ?? 9) - (rootOrder[b.type] ?? 9));
  return access.all ? roots : roots.filter((r) => r.type !== 'settings');
}

function leaf(settings: TreeNode, type: 'users' | 'configfiles'): TreeNode {
  return {
    key: `${type}-${settings.id}`,
    id: settings.id,
    name: type,
    type,
    folderType: null,
    parent: settings.id,
    isRoot: false,
    isFolderAdmin: settings.isFolderAdmin,
    canWrite: settings.canWrite,
    permissions: { users: [], groups: [] },
    children: [],
  };
}
