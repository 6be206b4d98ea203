import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, Box, Button, Chip, Container, IconButton, Stack, Toolbar } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { normalizePath } from '../route-access.ts';
import type { Session } from '../session.ts';
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
          <Logo />
          <Box sx={{ flex: 1 }} />
          {session.status === 'loggedIn' && (
            <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
              {session.currentTeam && (
                <Chip
                  label={session.currentTeam.name}
                  variant="outlined"
                  size="small"
                  data-testid="topbar-team"
                  sx={{ display: { xs: 'none', sm: 'inline-flex' }, fontWeight: 500, maxWidth: 240 }}
                />
              )}
              <UserMenu session={session} />
            </Stack>
          )}
          {session.status === 'loggedOut' && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <LanguageButton />
              <Button
                component={RouterLink}
                to="/login"
                color="inherit"
                data-testid="topbar-signin"
                sx={{ whiteSpace: 'nowrap', px: { xs: 1, sm: 2 } }}
              >
                {t('topBar.signIn')}
              </Button>
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
