// The project page's code-split parts and what the page asks for first, started before the page's
// own code has arrived (issue 16: the metadata tab's inputs in under 1 s). Small on purpose: the
// router imports it with the app.
import type { QueryClient } from '@tanstack/react-query';
import { xmpPropertiesQueryOptions, xmpValuesQueryOptions } from '../../api/metadata.ts';
import { picturesQueryOptions } from '../../api/picture-log.ts';
import { projectQueryOptions } from '../../api/projects.ts';
import { handlesAllErrors } from '../../api/query-client.ts';
import { scriptQuery } from '../../api/scripts.ts';
import { loadable } from '../../ui/loadable.ts';
import { PageSpinner } from '../../ui/page.tsx';
import { LoadingSkeleton } from './metadata/loading-skeleton.tsx';

/** The metadata tab's editor: its code loads with the tab, not with the project page. */
export const MetadataEditor = loadable(
  () => import('./metadata/metadata-editor.tsx'),
  (module) => module.MetadataEditor,
  LoadingSkeleton,
);

/** Each tab's code, loaded when the tab is opened (a tab does not carry the others' libraries). */
export const projectTabScreens = {
  overview: loadable(
    () => import('./overview-tab.tsx'),
    (m) => m.OverviewTab,
    PageSpinner,
  ),
  destinations: loadable(
    () => import('./destinations-tab.tsx'),
    (m) => m.DestinationsTab,
    PageSpinner,
  ),
  metadata: loadable(
    () => import('./metadata-tab.tsx'),
    (m) => m.MetadataTab,
    PageSpinner,
  ),
  script: loadable(
    () => import('./script-tab.tsx'),
    (m) => m.ScriptTab,
    PageSpinner,
  ),
  protocol: loadable(
    () => import('./protocol-tab.tsx'),
    (m) => m.ProtocolTab,
    PageSpinner,
  ),
};
type ProjectTabName = keyof typeof projectTabScreens;
const isProjectTabName = (tab: string | undefined): tab is ProjectTabName =>
  Object.hasOwn(projectTabScreens, tab ?? '');

/** The `id` of /project/{tab}?id=…: a positive safe integer, else 0 (no project). */
export function projectIdOf(value: string | null): number {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
}

/**
 * Starts loading the editor's code and data while the project itself is still on its way.
 * Quietly: a project that is not there (or not readable) gets its message from the project page;
 * once the tab shows, its own queries report failures as always.
 */
export function prefetchMetadataTab(queryClient: QueryClient, teamUuid: string, projectId: number) {
  void MetadataEditor.preload().catch(() => {});
  void queryClient.prefetchQuery({ ...xmpPropertiesQueryOptions(teamUuid), meta: handlesAllErrors });
  void queryClient.prefetchQuery({ ...xmpValuesQueryOptions(teamUuid, projectId), meta: handlesAllErrors });
}

/** The tab's code (and the metadata tab's editor): needs no session, so asked for at once. */
export function preloadProjectTab(tab: string | undefined) {
  if (!isProjectTabName(tab)) return;
  // Quietly: the tab (or editor) asks again when it shows and reports the error itself.
  void projectTabScreens[tab].preload().catch(() => {});
  if (tab === 'metadata') void MetadataEditor.preload().catch(() => {});
}

/**
 * A tab's code and first data (the job log's first page, the script), asked for before the tab
 * shows: with the project on a cold visit, and when a pointer or the focus reaches the tab
 * (issue 28 item 8: a tab switch under 300 ms). Quietly, as above.
 */
export function prefetchProjectTab(
  queryClient: QueryClient,
  teamUuid: string,
  projectId: number,
  tab: string | undefined,
  search?: URLSearchParams,
) {
  if (!isProjectTabName(tab)) return;
  preloadProjectTab(tab);
  if (tab === 'metadata') prefetchMetadataTab(queryClient, teamUuid, projectId);
  // An answer younger than a few seconds is not asked for again (a pointer passing to and fro).
  const staleTime = 5_000;
  if (tab === 'script')
    void queryClient.prefetchQuery({
      ...scriptQuery(teamUuid, { kind: 'project', id: projectId }),
      meta: handlesAllErrors,
      staleTime,
    });
  // The picture log, unless the address asks for the one-delivery-a-row view.
  if (tab === 'protocol' && search?.get('view') !== 'deliveries')
    void queryClient.prefetchQuery({
      ...picturesQueryOptions(teamUuid, { projectid: projectId }, 25, 0),
      meta: handlesAllErrors,
      staleTime,
    });
}

/** The project and the tab's first data: asked for once the team is known. */
export function prefetchProjectPage(
  queryClient: QueryClient,
  teamUuid: string,
  tab: string | undefined,
  search: URLSearchParams,
) {
  const projectId = projectIdOf(search.get('id'));
  if (!projectId || !isProjectTabName(tab)) return;
  void queryClient.prefetchQuery({ ...projectQueryOptions(teamUuid, projectId), meta: handlesAllErrors });
  prefetchProjectTab(queryClient, teamUuid, projectId, tab, search);
}

/**
 * Every tab's code, once the page has shown: the first switch to a tab does not wait for it. And
 * the script (a few hundred bytes): its tab shows nothing but it, so a switch waited for its
 * round trip behind whatever the server was doing (issue 28 item 8: 394 ms, goal 300).
 */
export function preloadAllProjectTabs(queryClient: QueryClient, teamUuid: string, projectId: number) {
  for (const tab of Object.keys(projectTabScreens)) preloadProjectTab(tab);
  void queryClient.prefetchQuery({
    ...scriptQuery(teamUuid, { kind: 'project', id: projectId }),
    meta: handlesAllErrors,
  });
}
