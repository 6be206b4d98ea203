// Spec §2 'Route guard' as a pure function: where (if anywhere) a location must redirect to.
import { loginFor, normalizePath, safeNext, signInPaths } from '../ui/next-path.ts';

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
  /** The location's query (`?a=b` or ''): carries `next` on the sign-in page. */
  search?: string;
  /** False for an address no route knows: a visitor sees the 404 page, not the sign-in (issue 27 item 7). */
  known?: boolean;
  loggedIn: boolean;
  /** The user's current team; null when the user belongs to no team. */
  team: { ready: boolean } | null;
};

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
