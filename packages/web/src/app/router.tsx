import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType, ReactElement } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { userInfoQueryOptions } from '../api/account.ts';
import { placeholderRoutes } from '../pages/coming-soon/placeholder-routes.tsx';
import { prefetchProjectPage, preloadProjectTab } from '../pages/project/prefetch.ts';
import { loadable } from '../ui/loadable.ts';
import { PageSpinner } from '../ui/page.tsx';
import { resolveCurrentTeam, useSession } from '../ui/session.ts';
import { RouteErrorElement } from './errors/fatal-error-dialog.tsx';
import { AppLayout } from './layout.tsx';
import { screenData } from './screen-prefetch.ts';

/** The module loader of each code-split screen, so the first page's code can be asked for early. */
const loaders = new Map<unknown, () => Promise<unknown>>();

/** Code-splits a screen that is a named export of its module. */
function page<K extends string, P extends object>(
  load: () => Promise<{ [key in K]: ComponentType<P> }>,
  name: K,
) {
  const screen = loadable(load, (module) => module[name], PageSpinner);
  loaders.set(screen, screen.preload);
  return screen;
}

const LandingPage = page(() => import('../pages/landing/landing-page.tsx'), 'LandingPage');
const DashboardPage = page(() => import('../pages/dashboard/dashboard-page.tsx'), 'DashboardPage');
const PicturesPage = page(() => import('../pages/pictures/pictures-page.tsx'), 'PicturesPage');
const LoginPage = page(() => import('../pages/login/login-page.tsx'), 'LoginPage');
const SignupPage = page(() => import('../pages/signup/signup-page.tsx'), 'SignupPage');
const VerifyPage = page(() => import('../pages/verify/verify-page.tsx'), 'VerifyPage');
const RecoverPage = page(() => import('../pages/recover/recover-page.tsx'), 'RecoverPage');
const ResetPasswordPage = page(
  () => import('../pages/reset-password/reset-password-page.tsx'),
  'ResetPasswordPage',
);
const ProfilePage = page(() => import('../pages/profile/profile-page.tsx'), 'ProfilePage');
const NoTeamPage = page(() => import('../pages/no-team/no-team-page.tsx'), 'NoTeamPage');
const TeamNotReadyPage = page(
  () => import('../pages/team-not-ready/team-not-ready-page.tsx'),
  'TeamNotReadyPage',
);
const ImprintPage = page(() => import('../pages/legal/imprint-page.tsx'), 'ImprintPage');
const PrivacyPage = page(() => import('../pages/legal/privacy-page.tsx'), 'PrivacyPage');
const TermsPage = page(() => import('../pages/legal/terms-page.tsx'), 'TermsPage');
const NotFoundPage = page(() => import('../pages/not-found/not-found-page.tsx'), 'NotFoundPage');
const ProjectRedirect = page(() => import('../pages/project/project-page.tsx'), 'ProjectRedirect');
const ProjectPage = page(() => import('../pages/project/project-page.tsx'), 'ProjectPage');
const NewProjectPage = page(() => import('../pages/project/new-project-page.tsx'), 'NewProjectPage');
const FtpServerPage = page(() => import('../pages/ftpserver/ftp-server-page.tsx'), 'FtpServerPage');
const FtpServersPage = page(() => import('../pages/ftpserver/ftp-servers-page.tsx'), 'FtpServersPage');
const UsersPage = page(() => import('../pages/users/users-page.tsx'), 'UsersPage');
const ConfigFilesPage = page(() => import('../pages/configfiles/config-files-page.tsx'), 'ConfigFilesPage');
const FolderPage = page(() => import('../pages/folder/folder-page.tsx'), 'FolderPage');
const AcceptInvitationPage = page(
  () => import('../pages/accept-invitation/accept-invitation-page.tsx'),
  'AcceptInvitationPage',
);
const CalendarPage = page(() => import('../pages/calendar/calendar-page.tsx'), 'CalendarPage');
const AcceptPhotographerInvitationPage = page(
  () => import('../pages/photographer-invitation/accept-invitation-page.tsx'),
  'AcceptInvitationPage',
);

/** '/' is the landing page for visitors and the dashboard for members (spec §2, reading A + B). */
function HomeRoute() {
  const session = useSession();
  return session.status === 'loggedIn' ? <DashboardPage /> : <LandingPage />;
}
// A cold '/' asks for the dashboard's code at once (most who open it are signed in).
loaders.set(HomeRoute, DashboardPage.preload);

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorElement />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/signup', element: <SignupPage /> },
      { path: '/verify', element: <VerifyPage /> },
      { path: '/recover', element: <RecoverPage /> },
      { path: '/resetPassword', element: <ResetPasswordPage /> },
      { path: '/welcome', element: <ProfilePage variant="welcome" /> },
      { path: '/userprofile', element: <ProfilePage variant="profile" /> },
      { path: '/noteam', element: <NoTeamPage /> },
      { path: '/teamnotready', element: <TeamNotReadyPage /> },
      { path: '/imprint', element: <ImprintPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      { path: '/termsandconditions', element: <TermsPage /> },
      { path: '/pictures', element: <PicturesPage /> },
      { path: '/project', element: <ProjectRedirect /> },
      { path: '/project/:tab', element: <ProjectPage /> },
      { path: '/newproject', element: <NewProjectPage /> },
      // Spec §2: one page edits (with id) or creates (with parentfolder) an FTP server.
      { path: '/ftpserver', element: <FtpServerPage /> },
      { path: '/newftpserver', element: <FtpServerPage /> },
      { path: '/team/ftpservers', element: <FtpServersPage /> },
      { path: '/users', element: <UsersPage /> },
      { path: '/configfiles', element: <ConfigFilesPage /> },
      { path: '/folder', element: <FolderPage /> },
      { path: '/acceptInvitation', element: <AcceptInvitationPage /> },
      { path: '/calendar', element: <CalendarPage /> },
      // Spelt as in spec §2.
      { path: '/acceptPhotographerInivitation', element: <AcceptPhotographerInvitationPage /> },
      ...placeholderRoutes,
      // `notFound`: the route guard lets visitors see this page too (issue 27 item 7).
      { path: '*', element: <NotFoundPage />, handle: { notFound: true } },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);

/**
 * What a screen asks for first, by route path: more of its code (at once) and its data (once the
 * session's team is known).
 */
const screenParts: Record<
  string,
  {
    code: (tab: string | undefined) => void;
    data: (
      queryClient: QueryClient,
      teamUuid: string,
      tab: string | undefined,
      search: URLSearchParams,
    ) => void;
  }
> = {
  '/project/:tab': { code: preloadProjectTab, data: prefetchProjectPage },
};

/**
 * Starts loading the code of the screen at `location` at once, beside the session's user info,
 * instead of after the route guard has seen the answer; and the screen's first data as soon as
 * that answer names the team, instead of after the screen's code has run (issue 16).
 */
export function preloadScreen(
  location: { pathname: string; search: string },
  queryClient: QueryClient,
): void {
  const match = matchRoutes(routes, location.pathname)?.at(-1);
  const element = match?.route.element as ReactElement | undefined;
  void loaders
    .get(element?.type)?.()
    .catch(() => {}); // the lazy screen asks again and shows the error itself
  const path = match?.route.path ?? '';
  const parts = screenParts[path];
  parts?.code(match?.params.tab);
  queryClient.fetchQuery(userInfoQueryOptions()).then(
    (info) => {
      const team = info.logged_in ? resolveCurrentTeam(info) : null;
      // The route guard sends a visitor or a team that is not ready elsewhere.
      if (!team?.ready) return;
      screenData[path]?.(queryClient, team.teamid);
      parts?.data(queryClient, team.teamid, match?.params.tab, new URLSearchParams(location.search));
    },
    () => {}, // the route guard shows the session's error
  );
}
