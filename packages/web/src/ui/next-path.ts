// Where a sign-in continues to (issue 27 item 3): the route guard (app/) and the sign-in and
// sign-up forms (ui/, pages/) read the same rules.

/** Pages for signing in; a signed-in user opening one goes to the dashboard (issue 16 item 10). */
export const signInPaths = new Set(['/login', '/signup', '/recover']);

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
