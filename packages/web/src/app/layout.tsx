import CloudOffOutlinedIcon from '@mui/icons-material/CloudOffOutlined';
import { Box, Button } from '@mui/material';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { applyDebugParam } from '../ui/debug-mode.ts';
import { normalizePath } from '../ui/next-path.ts';
import { PageSpinner, StatusPanel } from '../ui/page.tsx';
import { describeError } from '../ui/report-error.ts';
import { useSession } from '../ui/session.ts';
import { useAccountLanguage } from '../ui/use-language.ts';
import { guardRedirect } from './route-access.ts';
import { AppDrawer } from './shell/app-drawer.tsx';
import { Footer } from './shell/footer.tsx';
import { TopBar } from './shell/top-bar.tsx';

/** The app shell around every route; applies the route guard of spec §2. */
export function AppLayout() {
  const { t } = useTranslation('shell');
  const session = useSession();
  const location = useLocation();
  // The router's catch-all ('*', handle notFound) answers an address no page has.
  const known = !useMatches().some((match) => (match.handle as { notFound?: boolean } | undefined)?.notFound);
  const [mobileDrawerOpen, setMobileDrawerOpen] = useState(false);
  useAccountLanguage();

  useEffect(() => applyDebugParam(location.search), [location.search]);

  if (session.status === 'loading') {
    return (
      <Box sx={{ minHeight: '100vh', display: 'flex' }}>
        <PageSpinner />
      </Box>
    );
  }
  if (session.status === 'error') {
    return (
      <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
        <StatusPanel
          icon={<CloudOffOutlinedIcon />}
          tone="error"
          title={t('sessionError.title')}
          text={describeError(session.error)}
          actions={
            <Button variant="contained" onClick={session.retry}>
              {t('sessionError.retry')}
            </Button>
          }
        />
      </Box>
    );
  }

  const loggedIn = session.status === 'loggedIn';
  const team = loggedIn ? session.currentTeam : null;
  const redirect = guardRedirect({
    pathname: location.pathname,
    search: location.search,
    known,
    loggedIn,
    team,
  });
  if (redirect && redirect !== normalizePath(location.pathname)) return <Navigate to={redirect} replace />;

  const drawerTeam = team?.ready ? team.teamid : undefined;
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <TopBar session={session} onOpenDrawer={drawerTeam ? () => setMobileDrawerOpen(true) : undefined} />
      <Box sx={{ flex: 1, display: 'flex', minHeight: 0 }}>
        {drawerTeam && (
          <AppDrawer
            key={drawerTeam}
            teamUuid={drawerTeam}
            mobileOpen={mobileDrawerOpen}
            onMobileClose={() => setMobileDrawerOpen(false)}
          />
        )}
        <Box component="main" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
      {!loggedIn && <Footer />}
    </Box>
  );
}
