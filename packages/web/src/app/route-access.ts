// Spec §2 'Route guard' as a pure function: where (if anywhere) a location must redirect to.

/** Reachable without being logged in. */
const loggedOutPaths = new Set([
  '/',
  '/login',
  '/signup',
  '/recover',
  '/resetpassword',
  '/verify',
  '/imprint',
  '/termsandconditions',
  '/privacy',
  // A team invitation mailed to an existing account; accepting needs no login.
  '/acceptinvitation',
]);

/** Reachable when logged in, even without a (ready) current team. */
const teamFreePaths = new Set([
  '/imprint',
  '/termsandconditions',
  '/privacy',
  '/noteam',
  '/teamnotready',
  '/acceptinvitation',
]);

export type GuardInput = {
  pathname: string;
  loggedIn: boolean;
  /** The user's current team; null when the user belongs to no team. */
  team: { ready: boolean } | null;
};

export const normalizePath = (pathname: string) => {
  const lower = pathname.toLowerCase().replace(/\/+$/, '');
  return lower === '' ? '/' : lower;
};

/** The path to redirect to, or null when the location may be shown. */
export function guardRedirect({ pathname, loggedIn, team }: GuardInput): string | null {
  const path = normalizePath(pathname);
  if (!loggedIn) return loggedOutPaths.has(path) ? null : '/';
  if (teamFreePaths.has(path)) return null;
  if (!team) return '/noteam';
  if (!team.ready) return '/teamnotready';
  return null;
}

export const isLoggedOutPath = (pathname: string) => loggedOutPaths.has(normalizePath(pathname));
