// What the project page asks for first, started before the page's own code has arrived (issue 16:
// the metadata tab's inputs in under 1 s). Small on purpose: the router imports it with the app.
import type { QueryClient } from '@tanstack/react-query';
import { xmpPropertiesQueryOptions, xmpValuesQueryOptions } from '../../api/metadata.ts';
import { projectQueryOptions } from '../../api/projects.ts';
import { handlesAllErrors } from '../../api/query-client.ts';

export const loadMetadataEditor = () => import('./metadata/metadata-editor.tsx');

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
  void loadMetadataEditor().catch(() => {});
  void queryClient.prefetchQuery({ ...xmpPropertiesQueryOptions(teamUuid), meta: handlesAllErrors });
  void queryClient.prefetchQuery({ ...xmpValuesQueryOptions(teamUuid, projectId), meta: handlesAllErrors });
}

/** The project and, on the metadata tab, the editor: asked for as soon as the team is known. */
export function prefetchProjectPage(
  queryClient: QueryClient,
  teamUuid: string,
  tab: string | undefined,
  search: URLSearchParams,
) {
  const projectId = projectIdOf(search.get('id'));
  if (!projectId) return;
  void queryClient.prefetchQuery({ ...projectQueryOptions(teamUuid, projectId), meta: handlesAllErrors });
  if (tab === 'metadata') prefetchMetadataTab(queryClient, teamUuid, projectId);
}
