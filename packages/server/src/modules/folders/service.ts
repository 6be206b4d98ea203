import { AppError } from '@photorelay/contract/errors';
import type { TreeNode } from '@photorelay/contract/folders';
import type { Db } from '../../db/kysely.ts';
import type { FolderType, Permission } from '../../db/schema.ts';
import * as teamQueries from '../teams/queries.ts';
import type { Member } from '../teams/service.ts';
import { loadAccess, normalizePermissions, requirePermission } from './permissions.ts';
import * as q from './queries.ts';
import { buildTree } from './tree.ts';

export async function folderTree(db: Db, member: Member): Promise<TreeNode[]> {
  const [access, rows, permissionRows] = await Promise.all([
    loadAccess(db, member),
    q.listTreeRows(db, member.teamId),
    q.listTeamPermissions(db, member.teamId),
  ]);
  return buildTree(rows, permissionRows, access);
}

/** One folder with its permission tables (spec: GET team/folder/{id} -> folder[0]). */
export async function folderNode(db: Db, member: Member, folderId: number): Promise<TreeNode> {
  const access = await loadAccess(db, member);
  const folder = await requireFolder(db, member, folderId);
  requirePermission(access, folder.id, 'read');
  const find = (nodes: TreeNode[]): TreeNode | undefined => {
    for (const n of nodes) {
      if (n.key === `folder-${folderId}`) return n;
      const inner = find(n.children);
      if (inner) return inner;
    }
  };
  const node = find(await folderTree(db, member));
  if (!node) throw new AppError('NotFound');
  return node;
}

async function requireFolder(db: Db, member: Member, folderId: number) {
  const folder = await q.findFolder(db, member.teamId, folderId);
  if (!folder) throw new AppError('NotFound');
  return folder;
}

// Projects and FTP servers can have sub-folders; calendars and settings are fixed.
const foldersAllowedIn: FolderType[] = ['projects', 'ftpservers'];

export async function createFolder(
  db: Db,
  member: Member,
  input: { parentFolderId: number; name: string; type?: FolderType },
) {
  const access = await loadAccess(db, member);
  const parent = await requireFolder(db, member, input.parentFolderId);
  requirePermission(access, parent.id, 'write');
  if (!foldersAllowedIn.includes(parent.type))
    throw new AppError('ValidationError', `No folders can be created in ${parent.type}`);
  if (input.type && input.type !== 'folders' && input.type !== parent.type) {
    throw new AppError('ValidationError', `A folder in ${parent.type} must be of type ${parent.type}`);
  }
  const row = await q.insertFolder(db, {
    teamId: member.teamId,
    parentId: parent.id,
    type: parent.type,
    name: input.name,
  });
  return row.id;
}

export async function renameFolder(db: Db, member: Member, folderId: number, name: string) {
  const access = await loadAccess(db, member);
  const folder = await requireFolder(db, member, folderId);
  requirePermission(access, folder.id, 'write');
  if (folder.parent_id === null) throw new AppError('ValidationError', 'Root folders cannot be renamed');
  await q.renameFolder(db, member.teamId, folder.id, name);
}

export async function deleteFolder(db: Db, member: Member, folderId: number) {
  const access = await loadAccess(db, member);
  const folder = await requireFolder(db, member, folderId);
  requirePermission(access, folder.id, 'write');
  if (folder.parent_id === null) throw new AppError('ValidationError', 'Root folders cannot be deleted');
  await db.transaction().execute(async (trx) => {
    if ((await q.countFolderChildren(trx, member.teamId, folder.id)) > 0) {
      throw new AppError('Conflict', 'Only empty folders can be deleted');
    }
    await q.deleteFolder(trx, member.teamId, folder.id);
  });
}

/** Target checks shared by every move: it exists, is of the right kind and the member may write there. */
async function requireMoveTarget(db: Db, member: Member, targetId: number, type: FolderType) {
  const access = await loadAccess(db, member);
  const target = await requireFolder(db, member, targetId);
  requirePermission(access, target.id, 'write');
  if (target.type !== type) throw new AppError('ValidationError', `Only ${target.type} can be placed here`);
  return { access, target };
}

export async function moveFolder(db: Db, member: Member, targetId: number, folderId: number) {
  const folder = await requireFolder(db, member, folderId);
  const { access, target } = await requireMoveTarget(db, member, targetId, folder.type);
  requirePermission(access, folder.id, 'write');
  if (folder.parent_id === null) throw new AppError('ValidationError', 'Root folders cannot be moved');
  const parents = new Map((await q.listFolderParents(db, member.teamId)).map((f) => [f.id, f.parent_id]));
  for (let at: number | null | undefined = target.id; at !== null && at !== undefined; at = parents.get(at)) {
    if (at === folder.id)
      throw new AppError('ValidationError', 'A folder cannot be moved into itself or below itself');
  }
  await q.setFolderParent(db, member.teamId, folder.id, target.id);
}

export async function moveProject(db: Db, member: Member, targetId: number, projectId: number) {
  const project = await q.findProjectFolder(db, member.teamId, projectId);
  if (!project) throw new AppError('NotFound');
  const { access, target } = await requireMoveTarget(db, member, targetId, 'projects');
  requirePermission(access, project.folder_id, 'write');
  await q.setProjectFolder(db, member.teamId, project.id, target.id);
}

export async function moveFtpServer(db: Db, member: Member, targetId: number, ftpServerId: number) {
  const server = await q.findFtpServerFolder(db, member.teamId, ftpServerId);
  if (!server) throw new AppError('NotFound');
  const { access, target } = await requireMoveTarget(db, member, targetId, 'ftpservers');
  requirePermission(access, server.folder_id, 'write');
  await q.setFtpServerFolder(db, member.teamId, server.id, target.id);
}

async function requireFolderAdmin(db: Db, member: Member, folderId: number) {
  const access = await loadAccess(db, member);
  const folder = await requireFolder(db, member, folderId);
  requirePermission(access, folder.id, 'folder_admin');
  return folder;
}

export async function setUserPermission(
  db: Db,
  member: Member,
  folderId: number,
  userId: number,
  list: Permission[],
) {
  const folder = await requireFolderAdmin(db, member, folderId);
  const target = await teamQueries.findMember(db, member.teamId, userId);
  // Only verified members are offered (spec §5 'Permission dialog'): a pending invitee is nobody yet.
  if (!target || !(await teamQueries.isVerifiedUser(db, userId))) throw new AppError('NotFound');
  await q.upsertUserPermission(db, member.teamId, folder.id, userId, normalizePermissions(list));
}

export async function setGroupPermission(
  db: Db,
  member: Member,
  folderId: number,
  groupId: number,
  list: Permission[],
) {
  const folder = await requireFolderAdmin(db, member, folderId);
  const group = await teamQueries.findGroup(db, member.teamId, groupId);
  if (!group) throw new AppError('NotFound');
  if (group.has_all_permissions)
    throw new AppError('ValidationError', `${group.name} already has all permissions`);
  await q.upsertGroupPermission(db, member.teamId, folder.id, groupId, normalizePermissions(list));
}
