import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, Box, Button, Chip, Container, IconButton, Stack, Toolbar } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { normalizePath } from '../../ui/next-path.ts';
import type { Session } from '../../ui/session.ts';
import { ChangeTeamDialog } from './change-team-dialog.tsx';
import { LanguageButton } from './language-menu.tsx';
import { Logo } from './logo.tsx';
import { UserMenu } from './user-menu.tsx';

const signUpHiddenOn = new Set(['/signup', '/verify']);

type Props = { session: Session; onOpenDrawer?: () => void };

export function TopBar({ session, onOpenDrawer }: Props) {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const path = normalizePath(pathname);
  // Visitors' pages are centered; members' pages use the full width beside the drawer.
  const centered = session.status !== 'loggedIn';
  const [changeTeamOpen, setChangeTeamOpen] = useState(false);

  return (
    <AppBar position="sticky" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Container maxWidth={centered ? 'lg' : false} disableGutters={!centered}>
        <Toolbar disableGutters={centered} sx={{ gap: 1.5, minHeight: { xs: 56, sm: 64 } }}>
          {onOpenDrawer && (
            <IconButton
              edge="start"
              onClick={onOpenDrawer}
              aria-label={t('drawer.open')}
              sx={{ display: { md: 'none' } }}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Logo markOnlyOnPhone={session.status === 'loggedOut'} />
          <Box sx={{ flex: 1 }} />
          {session.status === 'loggedIn' && (
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
              {session.currentTeam && (
                // It looks like a button, so it is one: it opens the team switch (issue 16 item 10).
                <Chip
                  label={session.currentTeam.name}
                  variant="outlined"
                  size="small"
                  onClick={() => setChangeTeamOpen(true)}
                  // The name starts with the text shown (WCAG 2.5.3), then says what a click does.
                  aria-label={`${session.currentTeam.name} – ${t('userMenu.changeTeam')}`}
                  data-testid="topbar-team"
                  sx={{ display: { xs: 'none', sm: 'inline-flex' }, fontWeight: 500, maxWidth: 240 }}
                />
              )}
              {session.currentTeam && (
                <ChangeTeamDialog
                  open={changeTeamOpen}
                  onClose={() => setChangeTeamOpen(false)}
                  teams={session.teams}
                  currentTeamId={session.currentTeam.teamid}
                />
              )}
              <UserMenu session={session} />
            </Stack>
          )}
          {session.status === 'loggedOut' && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <LanguageButton />
              {/* Not on the sign-in page itself: there it only pushed a phone's page sideways (issue 27). */}
              {path !== '/login' && (
                <Button
                  component={RouterLink}
                  to="/login"
                  color="inherit"
                  data-testid="topbar-signin"
                  sx={{ whiteSpace: 'nowrap', px: { xs: 1, sm: 2 } }}
                >
                  {t('topBar.signIn')}
                </Button>
              )}
              {!signUpHiddenOn.has(path) && (
                <Button
                  component={RouterLink}
                  to="/signup"
                  variant="contained"
                  data-testid="topbar-signup"
                  sx={{ whiteSpace: 'nowrap', px: { xs: 1.5, sm: 2 } }}
                >
                  {t('topBar.signUp')}
                </Button>
              )}
            </Stack>
          )}
        </Toolbar>
      </Container>
    </AppBar>
  );
}
