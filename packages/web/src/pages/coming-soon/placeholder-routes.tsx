// Routes whose screens come with later issues (spec §2). Each one replaces its entry here with
// the real page; keeping them in one list makes that a one-line change.
import { Navigate, type RouteObject, useLocation } from 'react-router';
import { ComingSoonPage } from './coming-soon-page.tsx';

/** Spec §2: /project redirects to /project/overview keeping the query. */
function ProjectRedirect() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: '/project/overview', search }} replace />;
}

export const projectTabs = ['overview', 'destinations', 'metadata', 'script', 'protocol'] as const;

export const placeholderRoutes: RouteObject[] = [
  { path: '/project', element: <ProjectRedirect /> },
  ...projectTabs.map((tab) => ({ path: `/project/${tab}`, element: <ComingSoonPage area="project" /> })),
  { path: '/newproject', element: <ComingSoonPage area="newProject" /> },
  { path: '/ftpserver', element: <ComingSoonPage area="ftpServer" /> },
  { path: '/newftpserver', element: <ComingSoonPage area="newFtpServer" /> },
  { path: '/team/ftpservers', element: <ComingSoonPage area="ftpServers" /> },
  { path: '/calendar', element: <ComingSoonPage area="calendar" /> },
  { path: '/users', element: <ComingSoonPage area="users" /> },
  { path: '/configfiles', element: <ComingSoonPage area="configFiles" /> },
  { path: '/folder', element: <ComingSoonPage area="folder" /> },
  { path: '/acceptPhotographerInivitation', element: <ComingSoonPage area="photographerInvitation" /> },
];
