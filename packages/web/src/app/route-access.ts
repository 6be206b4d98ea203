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

/** Pages for signing in; a signed-in user opening one goes to the dashboard (issue 16 item 10). */
const signInPaths = new Set(['/login', '/signup', '/recover']);

export type GuardInput = {
  pathname: string;
  /** The location's query (`?a=b` or ''): carries `next` on the sign-in page. */
  search?: string;
  /** False for an address no route knows: a visitor sees the 404 page, not the sign-in (issue 27 item 7). */
  known?: boolean;
  loggedIn: boolean;
  /** The user's current team; null when the user belongs to no team. */
  team: { ready: boolean } | null;
};

export const normalizePath = (pathname: string) => {
  const lower = pathname.toLowerCase().replace(/\/+$/, '');
  return lower === '' ? '/' : lower;
};

/**
 * Where to go after signing in (issue 27 item 3): a path of this app only, never another site
 * (`//host`, `/\\host`, `https:`), nor a sign-in page again.
 */
export function safeNext(next: string | null | undefined): string | null {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  const path = next.split(/[?#]/, 1)[0] ?? '';
  return signInPaths.has(normalizePath(path)) ? null : next;
}

/** The sign-in page that continues to `pathname` + `search` afterwards. */
export const loginFor = (pathname: string, search = '') =>
  `/login?${new URLSearchParams({ next: `${pathname}${search}` })}`;

/** The path to redirect to, or null when the location may be shown. */
export function guardRedirect({
  pathname,
  search = '',
  known = true,
  loggedIn,
  team,
}: GuardInput): string | null {
  const path = normalizePath(pathname);
  if (!known) return null;
  // Logged out, a protected page (an invitation link, a bookmark) asks to sign in first and keeps
  // the address to continue to, instead of the landing page (issue 27 item 3).
  if (!loggedIn) return loggedOutPaths.has(path) ? null : loginFor(pathname, search);
  if (signInPaths.has(path)) return safeNext(new URLSearchParams(search).get('next')) ?? '/';
  if (teamFreePaths.has(path)) return null;
  if (!team) return '/noteam';
  if (!team.ready) return '/teamnotready';
  return null;
}

export const isLoggedOutPath = (pathname: string) => loggedOutPaths.has(normalizePath(pathname));
