import { z } from 'zod';
import { idParam, okResult } from './common.ts';
import { limits } from './limits.ts';
import { forMembers, forNode, teamRoute } from './route.ts';

export const permissionNames = ['read', 'write', 'folder_admin'] as const;
export type PermissionName = (typeof permissionNames)[number];
export const folderTypes = ['projects', 'ftpservers', 'calendars', 'settings', 'folders'] as const;
export const nodeTypes = [
  ...folderTypes,
  'project',
  'ftpserver',
  'calendar',
  'users',
  'configfiles',
] as const;
export type NodeType = (typeof nodeTypes)[number];

export const userPermission = z.object({
  dbuserid: z.number(),
  email: z.string(),
  permissions: z.array(z.enum(permissionNames)),
});
export const groupPermission = z.object({
  dbgroupid: z.number(),
  name: z.string(),
  localizedName: z.string(),
  permissions: z.array(z.enum(permissionNames)),
});

/**
 * A node of the drawer tree (spec §3). `id` is the entity's own id (folder, project, ftp server,
 * calendar); `key` is unique across the tree. Folders carry `folderType`: the root kind they belong
 * to, which decides what may be moved into them.
 */
export interface TreeNode {
  key: string;
  id: number;
  name: string;
  type: NodeType;
  folderType: (typeof folderTypes)[number] | null;
  parent: number;
  isRoot: boolean;
  isFolderAdmin: boolean;
  canWrite: boolean;
  permissions: { users: z.infer<typeof userPermission>[]; groups: z.infer<typeof groupPermission>[] };
  children: TreeNode[];
}

export const treeNode: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({
    key: z.string(),
    id: z.number(),
    name: z.string(),
    type: z.enum(nodeTypes),
    folderType: z.enum(folderTypes).nullable(),
    parent: z.number(),
    isRoot: z.boolean(),
    isFolderAdmin: z.boolean(),
    canWrite: z.boolean(),
    permissions: z.object({ users: z.array(userPermission), groups: z.array(groupPermission) }),
    children: z.array(treeNode),
  }),
);

export const folderName = z.string().trim().min(1).max(limits.folderName);
export const getFoldersResponse = z.object({ folders: z.array(treeNode) });
export const getFolderResponse = z.object({ folder: z.array(treeNode) });
export const postFolderBody = z.object({
  parentFolderId: z.number().int().positive(),
  name: folderName,
  type: z.enum(folderTypes).optional(),
});
export const postFolderResponse = z.object({ result: z.literal('OK'), folderId: z.number() });
export const putFolderBody = z
  .object({ id: z.number().optional(), newName: folderName.optional(), name: folderName.optional() })
  .refine((b) => b.newName !== undefined || b.name !== undefined, { message: 'newName or name is required' });
export const putPermissionBody = z.union([
  z.array(z.enum(permissionNames)),
  z.object({ permissions: z.array(z.enum(permissionNames)) }),
]);

// ---- routes (spec §7 "Folders and tree") ----

const folderNode = (needs: 'read' | 'write' | 'folder_admin') =>
  forNode(needs, { kind: 'folder', param: 'id' });
const folderParams = z.object({ id: idParam });

export const getFolderTree = teamRoute({
  method: 'GET',
  path: '/folders',
  response: getFoldersResponse,
  access: forMembers,
});

export const getFolder = teamRoute({
  method: 'GET',
  path: '/folder/:id',
  params: folderParams,
  response: getFolderResponse,
  access: folderNode('read'),
});

export const createFolder = teamRoute({
  method: 'POST',
  path: '/folder',
  body: postFolderBody,
  response: postFolderResponse,
  errors: ['NameTaken'],
  access: forNode('write', { kind: 'folder', body: 'parentFolderId' }),
});

export const renameFolder = teamRoute({
  method: 'PUT',
  path: '/folder/:id',
  params: folderParams,
  body: putFolderBody,
  response: okResult,
  errors: ['NameTaken'],
  access: folderNode('write'),
});

/** Only an empty folder can be deleted (Conflict otherwise). */
export const deleteFolder = teamRoute({
  method: 'DELETE',
  path: '/folder/:id',
  params: folderParams,
  response: okResult,
  errors: ['Conflict'],
  access: folderNode('write'),
});

export const setUserPermission = teamRoute({
  method: 'PUT',
  path: '/folder/:id/permission/user/:dbuserid',
  params: z.object({ id: idParam, dbuserid: idParam }),
  body: putPermissionBody,
  response: okResult,
  access: folderNode('folder_admin'),
});

export const setGroupPermission = teamRoute({
  method: 'PUT',
  path: '/folder/:id/permission/group/:dbgroupid',
  params: z.object({ id: idParam, dbgroupid: idParam }),
  body: putPermissionBody,
  response: okResult,
  access: folderNode('folder_admin'),
});

/** Moving a folder, project or FTP server into the folder `folderId`: one route per kind. */
const moveInto = <const K extends 'folder' | 'project' | 'ftpserver'>(kind: K) =>
  teamRoute({
    method: 'POST',
    path: `/folder/:folderId/${kind}/:id`,
    params: z.object({ folderId: idParam, id: idParam }),
    response: okResult,
    errors: ['NameTaken'],
    access: forNode('write', { kind: 'folder', param: 'folderId' }),
  });
export const moveRoutes = {
  folder: moveInto('folder'),
  project: moveInto('project'),
  ftpserver: moveInto('ftpserver'),
};
export type MovableKind = keyof typeof moveRoutes;
