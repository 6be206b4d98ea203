// The folder tree's context menu (spec §2 'Folder tree'): the actions the rules allow on the item,
// headed by its name; Delete comes last, set apart and in red.
import CloseIcon from '@mui/icons-material/Close';
import ContentPasteGoOutlinedIcon from '@mui/icons-material/ContentPasteGoOutlined';
import CreateNewFolderOutlinedIcon from '@mui/icons-material/CreateNewFolderOutlined';
import DeleteOutlineOutlinedIcon from '@mui/icons-material/DeleteOutlineOutlined';
import DriveFileMoveOutlinedIcon from '@mui/icons-material/DriveFileMoveOutlined';
import DriveFileRenameOutlineIcon from '@mui/icons-material/DriveFileRenameOutline';
import LibraryAddOutlinedIcon from '@mui/icons-material/LibraryAddOutlined';
import PostAddOutlinedIcon from '@mui/icons-material/PostAddOutlined';
import { Divider, ListItemIcon, ListItemText, Menu, MenuItem, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FolderNode } from '../../api/folders.ts';
import { useNodeLabel } from '../../ui/tree/node-label.ts';
import { type TreeAction, treeActions } from '../../ui/tree/tree-rules.ts';

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

/** Where the menu opens: the item it is for, at the pointer. */
export type MenuState = { node: FolderNode; x: number; y: number };

export function TreeMenu({
  menu,
  pendingMove,
  onRun,
  onClose,
}: {
  menu: MenuState | null;
  pendingMove: FolderNode | null;
  onRun: (action: TreeAction, node: FolderNode) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('shell');
  const labelOf = useNodeLabel();
  const actions = menu ? treeActions(menu.node, pendingMove) : [];
  return (
    <Menu
      open={Boolean(menu)}
      onClose={onClose}
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
          onClick={() => menu && onRun(action, menu.node)}
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
  );
}
