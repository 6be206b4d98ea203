import CloseIcon from '@mui/icons-material/Close';
import ContentPasteGoOutlinedIcon from '@mui/icons-material/ContentPasteGoOutlined';
import CreateNewFolderOutlinedIcon from '@mui/icons-material/CreateNewFolderOutlined';
import DeleteOutlineOutlinedIcon from '@mui/icons-material/DeleteOutlineOutlined';
import DriveFileMoveOutlinedIcon from '@mui/icons-material/DriveFileMoveOutlined';
import DriveFileRenameOutlineIcon from '@mui/icons-material/DriveFileRenameOutline';
import LibraryAddOutlinedIcon from '@mui/icons-material/LibraryAddOutlined';
import PostAddOutlinedIcon from '@mui/icons-material/PostAddOutlined';
import {
  Alert,
  Divider,
  IconButton,
  List,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import {
  type FolderNode,
  folderKeys,
  useCreateFolder,
  useDeleteFolder,
  useMoveNode,
  useRenameFolder,
} from '../../api/folders.ts';
import { useDeleteFtpServer, useRenameFtpServer } from '../../api/ftpservers.ts';
import { failingProjects, useJobSummary } from '../../api/jobs.ts';
import { useDeleteProject, useRenameProject } from '../../api/projects.ts';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import { showsNode } from './node-route.ts';
import { TreeContext, TreeItem, type TreeState, useNodeLabel } from './tree-item.tsx';
import {
  ancestorKeys,
  type ItemKind,
  itemKind,
  renameInTree,
  renameValue,
  type TreeAction,
  treeActions,
} from './tree-rules.ts';

const actionIcons: Record<TreeAction, ReactNode> = {
  newProject: <PostAddOutlinedIcon fontSize="small" />,
  newFtpServer: <LibraryAddOutlinedIcon fontSize="small" />,
  newFolder: <CreateNewFolderOutlinedIcon fontSize="small" />,
  rename: <DriveFileRenameOutlineIcon fontSize="small" />,
  move: <DriveFileMoveOutlinedIcon fontSize="small" />,
  place: <ContentPasteGoOutlinedIcon fontSize="small" />,
  cancelMove: <CloseIcon fontSize="small" />,
  delete: <DeleteOutlineOutlinedIcon fontSize="small" />,
};

const expandedStorageKey = (teamUuid: string) => `photorelay.treeExpanded.${teamUuid}`;

function loadExpanded(teamUuid: string, roots: FolderNode[]): Set<string> {
  try {
    const stored = sessionStorage.getItem(expandedStorageKey(teamUuid));
    if (stored) return new Set(JSON.parse(stored) as string[]);
  } catch {
    // Without storage the tree starts with the roots open.
  }
  return new Set(roots.map((root) => root.key));
}

type MenuState = { node: FolderNode; x: number; y: number };

export function FolderTree({
  roots,
  teamUuid,
  onNavigate,
}: {
  roots: FolderNode[];
  teamUuid: string;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation('shell');
  const { t: tc } = useTranslation('common');
  const { t: tf } = useTranslation('folders');
  const { t: tp } = useTranslation('projects');
  const { t: ts } = useTranslation('ftpServers');
  const labelOf = useNodeLabel();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { enqueueSnackbar } = useSnackbar();

  const [expanded, setExpanded] = useState(() => loadExpanded(teamUuid, roots));
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
  const summary = useJobSummary(teamUuid);

  useEffect(() => {
    try {
      sessionStorage.setItem(expandedStorageKey(teamUuid), JSON.stringify([...expanded]));
    } catch {
      // not remembered then
    }
  }, [expanded, teamUuid]);

  // Open the branch that holds the item shown on the page (e.g. after following a link).
  useEffect(() => {
    const path = ancestorKeys(roots, (node) => showsNode(node, location.pathname, location.search));
    if (!path?.length) return;
    setExpanded((current) =>
      path.every((key) => current.has(key)) ? current : new Set([...current, ...path]),
    );
  }, [roots, location.pathname, location.search]);

  const expand = (key: string) =>
    setExpanded((current) => (current.has(key) ? current : new Set([...current, key])));

  const state: TreeState = {
    expanded,
    toggle: (key) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
    renaming,
    pendingMove,
    onNavigate,
    failing: failingProjects(summary.data ?? []),
    openMenu: (node, event) => {
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
      const treeKey = folderKeys.tree(teamUuid);
      // Show the new name at once; a reload under way is cancelled (it would bring back the old
      // name) and the mutations reload the tree when the server answered.
      // Cancel first: cancelling reverts the query to its data from before that fetch.
      void queryClient.cancelQueries({ queryKey: treeKey }).then(() => {
        queryClient.setQueryData<FolderNode[]>(treeKey, (current) =>
          current ? renameInTree(current, node.key, name) : current,
        );
        renames[kind].mutate({ id: node.id, name });
      });
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
  const deleteMessage = (node: FolderNode | null) => {
    const kind = node && itemKind(node);
    if (kind === 'project') return tp('deleteConfirm');
    if (kind === 'ftpserver') return ts('deleteConfirm');
    return tf('deleteConfirm');
  };
  const deleteBusy = deleteFolder.isPending || deleteProject.isPending || deleteFtpServer.isPending;

  const actions = menu ? treeActions(menu.node, pendingMove) : [];

  return (
    <TreeContext.Provider value={state}>
      {pendingMove && (
        <Alert
          severity="info"
          icon={<DriveFileMoveOutlinedIcon fontSize="small" />}
          data-testid="tree-move-pending"
          action={
            <IconButton
              size="small"
              aria-label={t('tree.menu.cancelMove')}
              onClick={() => setPendingMove(null)}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          }
          sx={{ mx: 1, mb: 1, py: 0, fontSize: '0.8rem', '& .MuiAlert-message': { minWidth: 0 } }}
        >
          <Typography
            variant="body2"
            noWrap
            title={pendingMove.name}
            sx={{ fontWeight: 600, fontSize: '0.8rem' }}
          >
            {t('tree.movePending', { name: pendingMove.name })}
          </Typography>
          <Typography variant="caption" sx={{ display: 'block', lineHeight: 1.35 }}>
            {t('tree.moveHint')}
          </Typography>
        </Alert>
      )}
      <List disablePadding data-testid="folder-tree" sx={{ px: 1 }}>
        {roots.map((node) => (
          <TreeItem key={node.key} node={node} depth={0} />
        ))}
      </List>
      <Menu
        open={Boolean(menu)}
        onClose={() => setMenu(null)}
        anchorReference="anchorPosition"
        anchorPosition={menu ? { top: menu.y, left: menu.x } : undefined}
        disableRestoreFocus
        slotProps={{ paper: { sx: { minWidth: 220 } }, list: { dense: true } }}
        data-testid="tree-menu"
      >
        {menu && (
          <Typography
            variant="caption"
            color="text.secondary"
            noWrap
            component="div"
            sx={{ px: 2, pt: 0.5, pb: 1, maxWidth: 280, fontWeight: 600 }}
          >
            {labelOf(menu.node)}
          </Typography>
        )}
        {actions.flatMap((action, index) => [
          ...(action === 'delete' && index > 0 ? [<Divider key="divider" />] : []),
          <MenuItem
            key={action}
            onClick={() => menu && run(action, menu.node)}
            data-testid={`tree-menu-${action}`}
            sx={action === 'delete' ? { color: 'error.main' } : undefined}
          >
            <ListItemIcon sx={action === 'delete' ? { color: 'error.main' } : undefined}>
              {actionIcons[action]}
            </ListItemIcon>
            <ListItemText>
              {action === 'place'
                ? t('tree.menu.place', { name: pendingMove?.name ?? '' })
                : t(`tree.menu.${action}`)}
            </ListItemText>
          </MenuItem>,
        ])}
      </Menu>
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('tree.deleteTitle', { name: deleting?.name ?? '' })}
        message={deleteMessage(deleting)}
        confirmLabel={tc('actions.delete')}
        cancelLabel={tc('actions.cancel')}
        busy={deleteBusy}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
        testId="tree-delete-dialog"
      />
    </TreeContext.Provider>
  );
}
