// Routes whose screens come with later issues (spec §2). Each one replaces its entry here with
// the real page; keeping them in one list makes that a one-line change.
import type { RouteObject } from 'react-router';
import { ComingSoonPage } from './coming-soon-page.tsx';

export const placeholderRoutes: RouteObject[] = [
  { path: '/calendar', element: <ComingSoonPage area="calendar" /> },
  { path: '/acceptPhotographerInivitation', element: <ComingSoonPage area="photographerInvitation" /> },
];
