import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import EventOutlinedIcon from '@mui/icons-material/EventOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutlined';
import PhotoLibraryOutlinedIcon from '@mui/icons-material/PhotoLibraryOutlined';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import { Box, Collapse, List, ListItemButton, ListItemIcon, ListItemText } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { FolderNode } from '../../api/folders.ts';

/** Where a click on a node leads (spec §2 'Left drawer'); null only expands or collapses it. */
export function nodeRoute(node: FolderNode): string | null {
  switch (node.type) {
    case 'project':
      return `/project/overview?id=${node.id}`;
    case 'ftpserver':
      return `/ftpserver?id=${node.id}`;
    case 'calendar':
      return `/calendar?id=${node.id}`;
    case 'users':
      return '/users';
    case 'configfiles':
      return '/configfiles';
    case 'settings':
      return null;
    default:
      return `/folder?id=${node.id}`;
  }
}

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
};

const rootLabelTypes = new Set(['projects', 'ftpservers', 'calendars', 'settings']);
const leafLabelTypes = new Set(['users', 'configfiles']);

function TreeItem({ node, depth, onNavigate }: { node: FolderNode; depth: number; onNavigate?: () => void }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(depth === 0);
  const route = nodeRoute(node);
  const hasChildren = node.children.length > 0;
  const isRoot = node.isRoot || depth === 0;
  const label =
    (isRoot && rootLabelTypes.has(node.type)) || leafLabelTypes.has(node.type)
      ? t(`tree.labels.${node.type}`)
      : node.name;
  const selected =
    route !== null && `${location.pathname}${location.search}`.toLowerCase() === route.toLowerCase();
  const isFolder = !['project', 'ftpserver', 'calendar', 'users', 'configfiles'].includes(node.type);

  return (
    <>
      <ListItemButton
        dense
        selected={selected}
        onClick={() => {
          if (hasChildren && (route === null || !open)) setOpen((value) => !value);
          if (route) {
            navigate(route);
            onNavigate?.();
          }
        }}
        sx={{ pl: 0.5 + depth * 1.5, pr: 1, py: 0.25, minHeight: 32 }}
        data-testid={`tree-node-${node.key}`}
      >
        <Box
          component="span"
          onClick={(event) => {
            if (!hasChildren) return;
            event.stopPropagation();
            setOpen((value) => !value);
          }}
          sx={{ display: 'inline-flex', width: 20, color: 'text.secondary', flexShrink: 0 }}
          aria-hidden
        >
          {hasChildren &&
            (open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />)}
        </Box>
        <ListItemIcon sx={{ minWidth: 28, color: isRoot ? 'primary.main' : 'text.secondary' }}>
          {icons[node.type] ?? (isFolder ? <FolderOutlinedIcon fontSize="small" /> : null)}
        </ListItemIcon>
        <ListItemText
          primary={label}
          slotProps={{
            primary: {
              noWrap: true,
              title: label,
              sx: { fontSize: '0.875rem', fontWeight: isRoot ? 600 : 400 },
            },
          }}
        />
      </ListItemButton>
      {hasChildren && (
        <Collapse in={open} timeout="auto" unmountOnExit>
          <List disablePadding>
            {node.children.map((child) => (
              <TreeItem key={child.key} node={child} depth={depth + 1} onNavigate={onNavigate} />
            ))}
          </List>
        </Collapse>
      )}
    </>
  );
}

export function FolderTree({ roots, onNavigate }: { roots: FolderNode[]; onNavigate?: () => void }) {
  return (
    <List disablePadding data-testid="folder-tree" sx={{ px: 1 }}>
      {roots.map((node) => (
        <TreeItem key={node.key} node={node} depth={0} onNavigate={onNavigate} />
      ))}
    </List>
  );
}
