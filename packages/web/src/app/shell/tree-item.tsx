// One node of the drawer's tree with its inline rename; the tree's state comes through TreeContext.
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import ErrorIcon from '@mui/icons-material/Error';
import EventOutlinedIcon from '@mui/icons-material/EventOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutlined';
import PhotoLibraryOutlinedIcon from '@mui/icons-material/PhotoLibraryOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import {
  Box,
  Collapse,
  InputBase,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Tooltip,
} from '@mui/material';
import {
  createContext,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useContext,
  useRef,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { FolderNode } from '../../api/folders.ts';
import { useNodeLabel } from '../../ui/tree/node-label.ts';
import { nodeRoute, showsNode } from '../../ui/tree/node-route.ts';
import { itemKind, nameLimit, treeActions } from '../../ui/tree/tree-rules.ts';

const icons: Record<string, ReactNode> = {
  projects: <PhotoLibraryOutlinedIcon fontSize="small" />,
  ftpservers: <DnsOutlinedIcon fontSize="small" />,
  project: <AccountTreeOutlinedIcon fontSize="small" />,
  ftpserver: <DnsOutlinedIcon fontSize="small" />,
  calendars: <CalendarMonthOutlinedIcon fontSize="small" />,
  calendar: <EventOutlinedIcon fontSize="small" />,
  settings: <SettingsOutlinedIcon fontSize="small" />,
  users: <PeopleOutlineIcon fontSize="small" />,
  configfiles: <DescriptionOutlinedIcon fontSize="small" />,
  folder: <FolderOutlinedIcon fontSize="small" />,
};

export type TreeState = {
  expanded: ReadonlySet<string>;
  toggle: (key: string) => void;
  renaming: string | null;
  pendingMove: FolderNode | null;
  openMenu: (node: FolderNode, event: MouseEvent) => void;
  startRename: (node: FolderNode) => void;
  finishRename: (node: FolderNode, typed: string | null) => void;
  onNavigate?: () => void;
  /** Projects with a destination failing now: they carry a badge (issue 16). */
  failing: ReadonlySet<number>;
};

export const TreeContext = createContext<TreeState | null>(null);
const useTree = () => {
  const state = useContext(TreeContext);
  if (!state) throw new Error('TreeItem outside FolderTree');
  return state;
};

/** The inline name editor: Enter saves, Escape cancels, leaving the field saves (spec §2). */
function RenameField({ node, label }: { node: FolderNode; label: string }) {
  const { finishRename } = useTree();
  const { t } = useTranslation('shell');
  const done = useRef(false);
  const finish = (typed: string | null) => {
    if (done.current) return;
    done.current = true;
    finishRename(node, typed);
  };
  const kind = itemKind(node);
  return (
    <InputBase
      autoFocus
      defaultValue={label}
      onFocus={(event) => event.target.select()}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === 'Enter') finish((event.target as HTMLInputElement).value);
        if (event.key === 'Escape') finish(null);
      }}
      onBlur={(event) => finish(event.target.value)}
      inputProps={{
        maxLength: kind ? nameLimit(kind) : undefined,
        'aria-label': t('tree.renameLabel'),
        'data-testid': 'tree-rename-input',
      }}
      sx={{
        flex: 1,
        minWidth: 0,
        fontSize: '0.875rem',
        px: 0.75,
        borderRadius: 1,
        bgcolor: 'background.paper',
        boxShadow: (theme) => `0 0 0 2px ${theme.palette.primary.main}`,
      }}
    />
  );
}

export function TreeItem({ node, depth }: { node: FolderNode; depth: number }) {
  const tree = useTree();
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const location = useLocation();
  const labelOf = useNodeLabel();
  const route = nodeRoute(node);
  const hasChildren = node.children.length > 0;
  const open = tree.expanded.has(node.key);
  const label = labelOf(node);
  const selected = showsNode(node, location.pathname, location.search);
  const isFolderNode = node.folderType !== null;
  const renaming = tree.renaming === node.key;
  const moving = tree.pendingMove?.key === node.key;

  const onKeyDown = (event: KeyboardEvent) => {
    // F2 renames, as in file managers, where the menu would offer it.
    if (event.key === 'F2' && treeActions(node, null).includes('rename')) {
      event.preventDefault();
      tree.startRename(node);
    }
  };

  // An <li> holds the node and its open branch: a list holds only items (axe 'list').
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListItemButton
        dense
        selected={selected}
        onClick={() => {
          if (renaming) return;
          if (hasChildren && (route === null || !open)) tree.toggle(node.key);
          if (route) {
            navigate(route);
            tree.onNavigate?.();
          }
        }}
        onContextMenu={(event) => tree.openMenu(node, event)}
        onKeyDown={onKeyDown}
        sx={{
          pl: 0.5 + depth * 1.5,
          pr: 1,
          py: 0.25,
          minHeight: 32,
          ...(moving && { outline: '1px dashed', outlineColor: 'primary.main', outlineOffset: -2 }),
        }}
        data-testid={`tree-node-${node.key}`}
        aria-expanded={hasChildren ? open : undefined}
      >
        <Box
          component="span"
          onClick={(event) => {
            if (!hasChildren) return;
            event.stopPropagation();
            tree.toggle(node.key);
          }}
          sx={{ display: 'inline-flex', width: 20, color: 'text.secondary', flexShrink: 0 }}
          aria-hidden
        >
          {hasChildren &&
            (open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />)}
        </Box>
        <ListItemIcon sx={{ minWidth: 28, color: node.isRoot ? 'primary.main' : 'text.secondary' }}>
          {icons[isFolderNode && !node.isRoot ? 'folder' : node.type] ?? icons.folder}
        </ListItemIcon>
        {renaming ? (
          <RenameField node={node} label={label} />
        ) : (
          <ListItemText
            primary={label}
            slotProps={{
              primary: {
                noWrap: true,
                title: label,
                sx: { fontSize: '0.875rem', fontWeight: node.isRoot ? 600 : 400 },
              },
            }}
          />
        )}
        {node.type === 'project' && tree.failing.has(node.id) && (
          <Tooltip title={t('tree.failing')}>
            <ErrorIcon
              color="error"
              sx={{ fontSize: 16, ml: 0.5, flexShrink: 0 }}
              aria-label={t('tree.failing')}
              data-testid="tree-failing-badge"
            />
          </Tooltip>
        )}
      </ListItemButton>
      {hasChildren && (
        <Collapse in={open} timeout="auto" unmountOnExit>
          <List disablePadding>
            {node.children.map((child) => (
              <TreeItem key={child.key} node={child} depth={depth + 1} />
            ))}
          </List>
        </Collapse>
      )}
    </ListItem>
  );
}

/** Open branches are remembered per team for the browser session. */
