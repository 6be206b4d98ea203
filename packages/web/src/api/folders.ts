// Folder tree of the current team (spec §3 'Folder tree node', §7 'Folders and tree'). The server
// sends it nested and in the spec's order.
import { okResult } from '@photorelay/contract/common';
import {
  getFolderResponse,
  getFoldersResponse,
  type PermissionName,
  postFolderResponse,
  type TreeNode,
} from '@photorelay/contract/folders';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost, apiPut, teamPath, teamScope } from './client.ts';
import { handlesAllErrors } from './query-client.ts';

export type FolderNode = TreeNode;
export type { PermissionName };

export const folderKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'folders'] as const,
  tree: (teamUuid: string) => [...folderKeys.all(teamUuid), 'tree'] as const,
  detail: (teamUuid: string, folderId: number) => [...folderKeys.all(teamUuid), 'folder', folderId] as const,
};

// ---- fetchers ----

export const fetchFolderTree = (teamUuid: string, signal?: AbortSignal) =>
  apiGet(teamPath(teamUuid, 'folders'), { schema: getFoldersResponse, signal }).then(
    (answer) => answer.folders,
  );

export const fetchFolder = (teamUuid: string, folderId: number, signal?: AbortSignal) =>
  apiGet(teamPath(teamUuid, `folder/${folderId}`), { schema: getFolderResponse, signal }).then(
    (answer) => answer.folder[0],
  );

export const postFolder = (teamUuid: string, body: { parentFolderId: number; name: string }) =>
  apiPost(teamPath(teamUuid, 'folder'), body, { schema: postFolderResponse });

export const putFolderName = (teamUuid: string, folderId: number, newName: string) =>
  apiPut(teamPath(teamUuid, `folder/${folderId}`), { newName }, { schema: okResult });

export const deleteFolder = (teamUuid: string, folderId: number) =>
  apiDelete(teamPath(teamUuid, `folder/${folderId}`), {}, { schema: okResult });

export type MovableKind = 'folder' | 'project' | 'ftpserver';
/** Spec §7 'Move': POST team/folder/{folderId}/project|ftpserver|folder/{id}. */
export const postMove = (teamUuid: string, targetFolderId: number, kind: MovableKind, id: number) =>
  apiPost(teamPath(teamUuid, `folder/${targetFolderId}/${kind}/${id}`), {}, { schema: okResult });

export type PermissionSubject = { kind: 'user'; id: number } | { kind: 'group'; id: number };
/** An empty list removes the entry; the server normalizes the list to one of the three levels. */
export const putPermission = (
  teamUuid: string,
  folderId: number,
  subject: PermissionSubject,
  permissions: PermissionName[],
) =>
  apiPut(teamPath(teamUuid, `folder/${folderId}/permission/${subject.kind}/${subject.id}`), permissions, {
    schema: okResult,
  });

// ---- queries ----

export const folderTreeQueryOptions = (teamUuid: string) =>
  queryOptions({
    queryKey: folderKeys.tree(teamUuid),
    queryFn: ({ signal }) => fetchFolderTree(teamUuid, signal),
    // The tree is optional in the shell: without an answer the drawer shows an empty tree.
    meta: handlesAllErrors,
    retry: false,
  });

export const useFolderTree = (teamUuid: string | undefined) =>
  useQuery({ ...folderTreeQueryOptions(teamUuid ?? ''), enabled: Boolean(teamUuid) });

export const folderQueryOptions = (teamUuid: string, folderId: number) =>
  queryOptions({
    queryKey: folderKeys.detail(teamUuid, folderId),
    queryFn: ({ signal }) => fetchFolder(teamUuid, folderId, signal),
    // The page shows 'not found' itself.
    meta: { handlesError: (error) => 'code' in error && error.code === 'NotFound' },
  });

export const useFolder = (teamUuid: string, folderId: number) =>
  useQuery({ ...folderQueryOptions(teamUuid, folderId), enabled: folderId > 0 });

// ---- mutations ----

// Renaming or deleting a project or FTP server lives in projects.ts / ftpservers.ts, which also
// refresh the tree; folder calls only change what the folder queries show.
function useInvalidateTree(teamUuid: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: folderKeys.all(teamUuid) });
}

export function useCreateFolder(teamUuid: string) {
  const invalidate = useInvalidateTree(teamUuid);
  return useMutation({
    mutationFn: (body: { parentFolderId: number; name: string }) => postFolder(teamUuid, body),
    onSuccess: invalidate,
  });
}

export function useRenameFolder(teamUuid: string) {
  const invalidate = useInvalidateTree(teamUuid);
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => putFolderName(teamUuid, id, name),
    onSettled: invalidate,
  });
}

export function useDeleteFolder(teamUuid: string) {
  const invalidate = useInvalidateTree(teamUuid);
  return useMutation({
    mutationFn: (folderId: number) => deleteFolder(teamUuid, folderId),
    onSuccess: invalidate,
  });
}

export function useMoveNode(teamUuid: string) {
  const invalidate = useInvalidateTree(teamUuid);
  return useMutation({
    mutationFn: ({ target, kind, id }: { target: number; kind: MovableKind; id: number }) =>
      postMove(teamUuid, target, kind, id),
    onSettled: invalidate,
  });
}

/**
 * Shows a change of the tree at once (a rename in the drawer). A reload under way is cancelled
 * first (it would bring back the old state; cancelling reverts the query to its data from before
 * that fetch); the mutation that follows reloads the tree when the server has answered.
 */
export function useOptimisticTreeUpdate(teamUuid: string) {
  const queryClient = useQueryClient();
  return async (update: (tree: FolderNode[]) => FolderNode[]) => {
    const treeKey = folderKeys.tree(teamUuid);
    await queryClient.cancelQueries({ queryKey: treeKey });
    queryClient.setQueryData<FolderNode[]>(treeKey, (current) => (current ? update(current) : current));
  };
}

export function useSetPermission(teamUuid: string, folderId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ subject, permissions }: { subject: PermissionSubject; permissions: PermissionName[] }) =>
      putPermission(teamUuid, folderId, subject, permissions),
    onSettled: () => queryClient.invalidateQueries({ queryKey: folderKeys.all(teamUuid) }),
  });
}
