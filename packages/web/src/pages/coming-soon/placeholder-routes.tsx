// Routes whose screens come with later issues (spec §2). Each one replaces its entry here with
// the real page; keeping them in one list makes that a one-line change.
import type { RouteObject } from 'react-router';

// The calendar and the photographer invitation page have their own routes now (issue 12).
export const placeholderRoutes: RouteObject[] = [];
