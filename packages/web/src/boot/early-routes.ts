// What a cold visit of a screen asks for before the app's own code has arrived and run (issue 28
// item 8: every screen's main content in under 1 s). The build (vite.config.ts) turns `modules`
// into the screen's code files; the early script (early.ts) asks for them and for `data` at once.
// A request here must be the very request the screen makes (method, path, body): the app takes
// the early answer instead of asking again (api/client.ts); one that differs is asked twice (the
// web-start browser test checks every screen here for that).

export type EarlyRequest = { method: 'GET' | 'POST'; path: string; body?: unknown };

export type EarlyRoute = {
  /** Source files (relative to packages/web) whose code the screen shows first. */
  modules: string[];
  /** The screen's first requests under /api/{team}/, most needed first. */
  data?: (search: URLSearchParams, today: string) => EarlyRequest[];
};

const get = (path: string): EarlyRequest => ({ method: 'GET', path });
/** The dashboard's and the drawer's counts (spec §7: a POST with any body). */
const jobSummary: EarlyRequest = { method: 'POST', path: 'jobs/summary', body: {} };

/** The `id` of /project/{tab}?id=…: a positive safe integer, else 0 (as pages/project/prefetch.ts). */
const projectId = (search: URLSearchParams) => {
  const id = Number(search.get('id'));
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
};

/** A project tab: the project page, the tab's code, the project and the tab's own first data. */
function projectTab(modules: string[], tabData: (id: number, search: URLSearchParams) => EarlyRequest[]) {
  return {
    modules: ['src/pages/project/project-page.tsx', ...modules],
    data: (search: URLSearchParams) => {
      const id = projectId(search);
      return id ? [get(`project/${id}`), ...tabData(id, search)] : [];
    },
  } satisfies EarlyRoute;
}

/** By the address's path (as in app/router.tsx). */
export const earlyRoutes: Record<string, EarlyRoute> = {
  '/': {
    modules: ['src/pages/dashboard/dashboard-page.tsx'],
    data: (_search, today) => [
      jobSummary,
      get(`uploads/recent?${new URLSearchParams({ since: today, limit: '12' })}`),
      get('folders'),
    ],
  },
  '/project/overview': projectTab(['src/pages/project/overview-tab.tsx'], () => [jobSummary]),
  '/project/destinations': projectTab(['src/pages/project/destinations-tab.tsx'], () => [jobSummary]),
  '/project/metadata': projectTab(
    ['src/pages/project/metadata-tab.tsx', 'src/pages/project/metadata/metadata-editor.tsx'],
    (id) => [
      get('xmpproperties'),
      get(`project/${id}/xmpvalues`),
      get(`project/${id}/metadatasettings`),
      get(`project/${id}/eventstamping`),
    ],
  ),
  '/project/script': projectTab(['src/pages/project/script-tab.tsx'], (id) => [get(`project/${id}/script`)]),
  '/project/protocol': projectTab(['src/pages/project/protocol-tab.tsx'], (id, search) =>
    // The picture log's first page, unless the address asks for one delivery a row.
    search.get('view') === 'deliveries'
      ? []
      : [{ method: 'POST', path: 'pictures/25/0', body: { projectid: id } }],
  ),
  '/team/ftpservers': {
    modules: ['src/pages/ftpserver/ftp-servers-page.tsx'],
    data: () => [get('ftpservers'), get('ftpservers/health'), get('folders')],
  },
  '/users': { modules: ['src/pages/users/users-page.tsx'], data: () => [get('users')] },
  '/calendar': {
    modules: ['src/pages/calendar/calendar-page.tsx'],
    data: () => [get('calendars'), get('externalcalendars'), get('calendarflags'), get('calendarfeed')],
  },
  '/pictures': {
    modules: ['src/pages/pictures/pictures-page.tsx'],
    data: (_search, today) => [{ method: 'POST', path: 'pictures/200/0', body: { from: today } }],
  },
};

/** The id of the JSON block in index.html that names each early route's code files. */
export const earlyCodeElementId = 'early-code';

/**
 * One request's key: method, path and body with its keys sorted (a filter object built in another
 * order is the same request).
 */
export function earlyKey(method: string, path: string, body?: unknown): string {
  const sorted = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, v]) => [k, sorted(v)]),
        )
      : value;
  return `${method} ${path} ${method === 'GET' ? '' : JSON.stringify(sorted(body ?? {}))}`;
}
