// What the folder tree's menu and inline editor do (spec §2 'Folder tree'): new project / FTP
// server / folder, rename (shown at once), move and place, delete with confirmation.
import { useSnackbar } from 'notistack';
import { type MouseEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import {
  type FolderNode,
  useCreateFolder,
  useDeleteFolder,
  useMoveNode,
  useOptimisticTreeUpdate,
  useRenameFolder,
} from '../../api/folders.ts';
import { useDeleteFtpServer, useRenameFtpServer } from '../../api/ftpservers.ts';
import { useDeleteProject, useRenameProject } from '../../api/projects.ts';
import { useNodeLabel } from '../../ui/tree/node-label.ts';
import { showsNode } from '../../ui/tree/node-route.ts';
import {
  type ItemKind,
  itemKind,
  renameInTree,
  renameValue,
  type TreeAction,
  treeActions,
} from '../../ui/tree/tree-rules.ts';
import type { TreeState } from './tree-item.tsx';
import type { MenuState } from './tree-menu.tsx';

export function useTreeActions({
  teamUuid,
  expand,
  onNavigate,
}: {
  teamUuid: string;
  /** Opens a folder (after something was created or placed in it). */
  expand: (key: string) => void;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation('shell');
  const { t: tf } = useTranslation('folders');
  const { t: tp } = useTranslation('projects');
  const { t: ts } = useTranslation('ftpServers');
  const labelOf = useNodeLabel();
  const navigate = useNavigate();
  const location = useLocation();
  const { enqueueSnackbar } = useSnackbar();

  const [menu, setMenu] = useState<MenuState | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [pendingMove, setPendingMove] = useState<FolderNode | null>(null);
  const [deleting, setDeleting] = useState<FolderNode | null>(null);

  const createFolder = useCreateFolder(teamUuid);
  const renameFolder = useRenameFolder(teamUuid);
  const renameProject = useRenameProject(teamUuid);
  const renameFtpServer = useRenameFtpServer(teamUuid);
  const deleteFolder = useDeleteFolder(teamUuid);
  const deleteProject = useDeleteProject(teamUuid);
  const deleteFtpServer = useDeleteFtpServer(teamUuid);
  const moveNode = useMoveNode(teamUuid);
  const updateTree = useOptimisticTreeUpdate(teamUuid);

  const itemState: Omit<TreeState, 'expanded' | 'toggle'> = {
    renaming,
    pendingMove,
    onNavigate,
    openMenu: (node: FolderNode, event: MouseEvent) => {
      if (treeActions(node, pendingMove).length === 0) return;
      event.preventDefault();
      setMenu({ node, x: event.clientX + 2, y: event.clientY - 6 });
    },
    startRename: (node) => setRenaming(node.key),
    finishRename: (node, typed) => {
      setRenaming(null);
      const name = typed === null ? null : renameValue(node, typed);
      const kind = itemKind(node);
      if (name === null || !kind) return;
      const renames: Record<ItemKind, { mutate: (vars: { id: number; name: string }) => void }> = {
        folder: renameFolder,
        project: renameProject,
        ftpserver: renameFtpServer,
      };
      // Show the new name at once; the mutation reloads the tree when the server answered.
      void updateTree((tree) => renameInTree(tree, node.key, name)).then(() =>
        renames[kind].mutate({ id: node.id, name }),
      );
    },
  };

  const run = (action: TreeAction, node: FolderNode) => {
    setMenu(null);
    switch (action) {
      case 'newProject':
        navigate(`/newproject?parentfolder=${node.id}`);
        onNavigate?.();
        return;
      case 'newFtpServer':
        navigate(`/newftpserver?parentfolder=${node.id}`);
        onNavigate?.();
        return;
      case 'newFolder':
        createFolder.mutate(
          { parentFolderId: node.id, name: t('tree.newFolderName') },
          {
            onSuccess: ({ folderId }) => {
              expand(node.key);
              // The new folder appears with its name ready to be typed over.
              setRenaming(`folder-${folderId}`);
            },
          },
        );
        return;
      case 'rename':
        // After the menu has let go of the focus, so the field keeps it.
        requestAnimationFrame(() => setRenaming(node.key));
        return;
      case 'move':
        setPendingMove(node);
        return;
      case 'cancelMove':
        setPendingMove(null);
        return;
      case 'place': {
        const item = pendingMove;
        const kind = item && itemKind(item);
        if (!item || !kind) return;
        setPendingMove(null);
        moveNode.mutate(
          { target: node.id, kind, id: item.id },
          {
            onSuccess: () => {
              expand(node.key);
              enqueueSnackbar(t('tree.moved', { name: item.name, target: labelOf(node) }), {
                variant: 'success',
              });
            },
          },
        );
        return;
      }
      case 'delete':
        setDeleting(node);
        return;
    }
  };

  const confirmDelete = () => {
    const node = deleting;
    const kind = node && itemKind(node);
    if (!node || !kind) return;
    const shown = showsNode(node, location.pathname, location.search);
    const onSuccess = () => {
      setDeleting(null);
      if (pendingMove?.key === node.key) setPendingMove(null);
      enqueueSnackbar(t('tree.deleted', { name: node.name }), { variant: 'success' });
      // The page of a deleted item has nothing left to show.
      if (shown) navigate(kind === 'ftpserver' ? '/team/ftpservers' : '/');
    };
    if (kind === 'folder') deleteFolder.mutate(node.id, { onSuccess });
    if (kind === 'project') deleteProject.mutate(node.id, { onSuccess });
    if (kind === 'ftpserver') deleteFtpServer.mutate(node.id, { onSuccess });
  };

  const deleteKind = deleting && itemKind(deleting);
  return {
    itemState,
    menu,
    closeMenu: () => setMenu(null),
    run,
    pendingMove,
    cancelMove: () => setPendingMove(null),
    deleting,
    cancelDelete: () => setDeleting(null),
    confirmDelete,
    deleteMessage:
      deleteKind === 'project'
        ? tp('deleteConfirm')
        : deleteKind === 'ftpserver'
          ? ts('deleteConfirm')
          : tf('deleteConfirm'),
    deleteBusy: deleteFolder.isPending || deleteProject.isPending || deleteFtpServer.isPending,
  };
}
