import AccountCircleOutlinedIcon from '@mui/icons-material/AccountCircleOutlined';
import GavelOutlinedIcon from '@mui/icons-material/GavelOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import {
  Avatar,
  Box,
  Divider,
  IconButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Menu,
  MenuItem,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useLogout } from '../../api/account.ts';
import { useGroupLabel } from '../../ui/group-label.ts';
import type { LoggedInSession } from '../../ui/session.ts';
import { ChangeTeamDialog } from './change-team-dialog.tsx';
import { LanguageMenuItems } from './language-menu.tsx';
import { legalLinks } from './legal-links.ts';

/** Avatar with initials and the account menu (spec §2 'App shell'). */
export function UserMenu({ session }: { session: LoggedInSession }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [changeTeamOpen, setChangeTeamOpen] = useState(false);
  const close = () => setAnchor(null);
  const { user, currentTeam, groups, teams } = session;
  const groupLabel = useGroupLabel();

  return (
    <>
      <Tooltip title={t('userMenu.open')}>
        <IconButton
          onClick={(event) => setAnchor(event.currentTarget)}
          // The name starts with the initials shown (WCAG 2.5.3).
          aria-label={`${user.initials || '?'} – ${t('userMenu.open')}`}
          aria-haspopup="menu"
          data-testid="user-menu-button"
          sx={{ p: 0.5 }}
        >
          <Avatar
            sx={{ width: 36, height: 36, bgcolor: 'primary.main', fontSize: '0.95rem', fontWeight: 600 }}
          >
            {user.initials || '?'}
          </Avatar>
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 260, mt: 1 } }, list: { dense: true } }}
      >
        {/* Inside role=menu only menu items count: the header and the language heading are
            shown, not items (axe aria-required-children, listitem). */}
        <Box component="li" role="none" sx={{ px: 2, pt: 1, pb: 1.5 }} data-testid="user-menu-header">
          <Typography component="div" sx={{ fontWeight: 600 }} data-testid="user-menu-fullname">
            {user.fullName}
          </Typography>
          {currentTeam && (
            <Typography component="div" variant="body2" color="text.secondary" data-testid="user-menu-team">
              {currentTeam.name}
            </Typography>
          )}
          {groups?.[0] && (
            <Typography
              component="div"
              variant="caption"
              color="text.secondary"
              data-testid="user-menu-group"
            >
              {groupLabel(groups[0])}
            </Typography>
          )}
        </Box>
        <Divider />
        <MenuItem component={RouterLink} to="/userprofile" onClick={close} data-testid="menu-profile">
          <ListItemIcon>
            <AccountCircleOutlinedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('userMenu.profile')}</ListItemText>
        </MenuItem>
        {teams.length > 1 && (
          <MenuItem
            data-testid="menu-change-team"
            onClick={() => {
              close();
              setChangeTeamOpen(true);
            }}
          >
            <ListItemIcon>
              <SwapHorizIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('userMenu.changeTeam')}</ListItemText>
          </MenuItem>
        )}
        <Divider />
        <ListSubheader role="none" sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>
          {t('language.title')}
        </ListSubheader>
        <LanguageMenuItems onDone={close} />
        <Divider />
        {legalLinks.map((link) => (
          <MenuItem key={link.to} component={RouterLink} to={link.to} onClick={close}>
            <ListItemIcon>
              <GavelOutlinedIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t(link.labelKey)}</ListItemText>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          data-testid="menu-logout"
          disabled={logout.isPending}
          onClick={() =>
            logout.mutate(undefined, {
              onSuccess: () => {
                close();
                navigate('/');
              },
            })
          }
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('userMenu.logout')}</ListItemText>
        </MenuItem>
      </Menu>
      <ChangeTeamDialog
        open={changeTeamOpen}
        onClose={() => setChangeTeamOpen(false)}
        teams={teams}
        currentTeamId={currentTeam?.teamid}
      />
    </>
  );
}
