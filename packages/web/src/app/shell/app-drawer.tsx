import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import FolderOffOutlinedIcon from '@mui/icons-material/FolderOffOutlined';
import PhotoCameraOutlinedIcon from '@mui/icons-material/PhotoCameraOutlined';
import {
  Box,
  Button,
  Drawer,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useFolderTree } from '../../api/folders.ts';
import { brand } from '../../ui/brand.ts';
import { describeError } from '../../ui/report-error.ts';
import { useCurrentTeam } from '../../ui/session.ts';
import { clampDrawerWidth, loadDrawerWidth, saveDrawerWidth } from './drawer-width.ts';
import { FolderTree } from './folder-tree.tsx';

type Props = {
  teamUuid: string;
  mobileOpen: boolean;
  onMobileClose: () => void;
};

function DrawerContent({ teamUuid, onNavigate }: { teamUuid: string; onNavigate?: () => void }) {
  const { t } = useTranslation('shell');
  const { t: tp } = useTranslation('pictures');
  const { t: tc } = useTranslation('calendar');
  const { pathname } = useLocation();
  const tree = useFolderTree(teamUuid);
  const team = useCurrentTeam();
  const roots = tree.data ?? [];

  return (
    <Box
      sx={{ py: 1.5, overflowX: 'hidden', overflowY: 'auto', height: '100%' }}
      data-testid="drawer-content"
    >
      <List disablePadding sx={{ px: 1, mb: 1 }}>
        <ListItem disablePadding>
          <ListItemButton
            dense
            component={RouterLink}
            to="/"
            selected={pathname === '/'}
            onClick={onNavigate}
            sx={{ minHeight: 36 }}
          >
            <ListItemIcon sx={{ minWidth: 32 }}>
              <DashboardOutlinedIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText
              primary={t('drawer.dashboard')}
              slotProps={{ primary: { noWrap: true, sx: { fontWeight: 500 } } }}
            />
          </ListItemButton>
        </ListItem>
        <ListItem disablePadding>
          <ListItemButton
            dense
            component={RouterLink}
            to="/pictures"
            selected={pathname === '/pictures'}
            onClick={onNavigate}
            sx={{ minHeight: 36 }}
            data-testid="drawer-pictures"
          >
            <ListItemIcon sx={{ minWidth: 32 }}>
              <PhotoCameraOutlinedIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText
              primary={tp('drawer')}
              slotProps={{ primary: { noWrap: true, sx: { fontWeight: 500 } } }}
            />
          </ListItemButton>
        </ListItem>
        {/* Every member's calendar (issue 27 item 2): their bookings and invitations always, the
            team's events where they may read them; no folder right needed to get there. */}
        <ListItem disablePadding>
          <ListItemButton
            dense
            component={RouterLink}
            to="/calendar"
            selected={pathname === '/calendar'}
            onClick={onNavigate}
            sx={{ minHeight: 36 }}
            data-testid="drawer-calendar"
          >
            <ListItemIcon sx={{ minWidth: 32 }}>
              <CalendarMonthOutlinedIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText
              primary={tc('title')}
              slotProps={{ primary: { noWrap: true, sx: { fontWeight: 500 } } }}
            />
          </ListItemButton>
        </ListItem>
      </List>
      <Typography
        variant="overline"
        color="text.secondary"
        sx={{ px: 2.5, fontSize: '0.68rem', display: 'block' }}
        noWrap
      >
        {t('drawer.tree')}
      </Typography>
      {tree.isLoading ? (
        <Stack spacing={1} sx={{ px: 2.5, pt: 1 }}>
          <Skeleton width="80%" />
          <Skeleton width="60%" />
          <Skeleton width="70%" />
        </Stack>
      ) : tree.isError && roots.length === 0 ? (
        // A failed load is not an empty tree (issue 16 bugs): say so and offer another try.
        <Stack spacing={1} sx={{ px: 2.5, pt: 1, alignItems: 'flex-start' }} data-testid="folder-tree-error">
          <Typography variant="body2" color="error">
            {t('drawer.treeError', { error: describeError(tree.error) })}
          </Typography>
          <Button
            size="small"
            variant="outlined"
            onClick={() => void tree.refetch()}
            data-testid="folder-tree-retry"
          >
            {t('drawer.treeRetry')}
          </Button>
        </Stack>
      ) : roots.length > 0 ? (
        <FolderTree roots={roots} teamUuid={teamUuid} onNavigate={onNavigate} />
      ) : (
        // Owners always see the root folders: an empty tree means no rights yet (issue 16 item 10).
        <Stack spacing={1} sx={{ px: 2.5, pt: 1, color: 'text.secondary' }} data-testid="folder-tree-empty">
          <FolderOffOutlinedIcon fontSize="small" />
          <Typography variant="body2" color="text.secondary">
            {team.owner ? t('drawer.askOwner', { owner: team.owner }) : t('drawer.askOwnerUnnamed')}
          </Typography>
        </Stack>
      )}
    </Box>
  );
}

/** Left drawer with the team's folder tree; resizable on wide screens, a sliding panel on small ones. */
export function AppDrawer({ teamUuid, mobileOpen, onMobileClose }: Props) {
  const { t } = useTranslation('shell');
  const [width, setWidth] = useState(loadDrawerWidth);
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startWidth: width };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    setWidth(clampDrawerWidth(drag.current.startWidth + event.clientX - drag.current.startX));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const next = clampDrawerWidth(drag.current.startWidth + event.clientX - drag.current.startX);
    drag.current = null;
    setWidth(next);
    saveDrawerWidth(next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 40 : 10;
    const delta = event.key === 'ArrowLeft' ? -step : event.key === 'ArrowRight' ? step : 0;
    if (!delta) return;
    event.preventDefault();
    const next = clampDrawerWidth(width + delta);
    setWidth(next);
    saveDrawerWidth(next);
  };

  return (
    <>
      <Drawer
        variant="temporary"
        open={mobileOpen}
        onClose={onMobileClose}
        sx={{ display: { xs: 'block', md: 'none' } }}
        slotProps={{ paper: { sx: { width: 280, bgcolor: brand.surface } } }}
      >
        <Box sx={{ height: 56 }} />
        <DrawerContent teamUuid={teamUuid} onNavigate={onMobileClose} />
      </Drawer>
      <Box
        component="nav"
        aria-label={t('drawer.label')}
        data-testid="app-drawer"
        sx={{
          display: { xs: 'none', md: 'block' },
          position: 'sticky',
          top: 64,
          alignSelf: 'flex-start',
          height: 'calc(100vh - 64px)',
          width,
          flexShrink: 0,
          bgcolor: '#fbfcfe',
        }}
      >
        <Box sx={{ height: '100%', pr: `${limits.drawerBorder}px` }}>
          <DrawerContent teamUuid={teamUuid} />
        </Box>
        <Box
          role="separator"
          aria-orientation="vertical"
          aria-label={t('drawer.resize')}
          aria-valuemin={limits.drawerMin}
          aria-valuemax={limits.drawerMax}
          aria-valuenow={width}
          tabIndex={0}
          data-testid="drawer-resize-handle"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown}
          sx={{
            position: 'absolute',
            top: 0,
            right: 0,
            bottom: 0,
            width: limits.drawerBorder,
            cursor: 'col-resize',
            bgcolor: brand.border,
            transition: 'background-color 120ms',
            touchAction: 'none',
            '&:hover, &:focus-visible, &:active': { bgcolor: 'primary.main', outline: 'none' },
            // A wider invisible grip makes the 3 px border easy to catch.
            '&::after': { content: '""', position: 'absolute', top: 0, bottom: 0, left: -4, right: -4 },
          }}
        />
      </Box>
    </>
  );
}
