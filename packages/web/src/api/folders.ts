// Folder tree of the current team (spec §3 'Folder tree node', §7 'Folders and tree'). The server
// sends it nested and in the spec's order.
import { getFoldersResponse, type TreeNode } from '@photorelay/contract/folders';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, teamPath, teamScope } from './client.ts';
import { handlesAllErrors } from './query-client.ts';

export type FolderNode = TreeNode;

export const folderKeys = {
  all: (teamUuid: string) => [...teamScope(teamUuid), 'folders'] as const,
  tree: (teamUuid: string) => [...folderKeys.all(teamUuid), 'tree'] as const,
};

export const fetchFolderTree = (teamUuid: string, signal?: AbortSignal) =>
  apiGet(teamPath(teamUuid, 'folders'), { schema: getFoldersResponse, signal }).then(
    (answer) => answer.folders,
  );

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
