// The Metadata tab of the project page (spec §2 'Project tabs'). The editor and the property
// catalog it checks inputs against load with the tab, not with the project page; the tab's data
// is fetched beside the editor's code, not after it (issue 16: inputs in under 1 s).
import type { Project } from '@photorelay/contract/projects';
import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import {
  useXmpProperties,
  useXmpValues,
  xmpPropertiesQueryOptions,
  xmpValuesQueryOptions,
} from '../../api/metadata.ts';
import { handlesAllErrors } from '../../api/query-client.ts';
import { useCurrentTeam } from '../../ui/session.ts';
import { EventStampSetting } from './metadata/event-stamp-setting.tsx';
import { HoldSetting } from './metadata/hold-setting.tsx';
import { LoadingSkeleton } from './metadata/loading-skeleton.tsx';

const loadEditor = () => import('./metadata/metadata-editor.tsx');
const MetadataEditor = lazy(() => loadEditor().then((module) => ({ default: module.MetadataEditor })));

/** Starts loading the editor's code and data while the project itself is still on its way. */
export function prefetchMetadataTab(queryClient: QueryClient, teamUuid: string, projectId: number) {
  void loadEditor().catch(() => {});
  // Quietly: a project that is not there (or not readable) gets its message from the project
  // page; once the tab shows, its own queries report failures as always.
  void queryClient.prefetchQuery({ ...xmpPropertiesQueryOptions(teamUuid), meta: handlesAllErrors });
  void queryClient.prefetchQuery({ ...xmpValuesQueryOptions(teamUuid, projectId), meta: handlesAllErrors });
}

export function MetadataTab({ project }: { project: Project }) {
  const team = useCurrentTeam();
  const properties = useXmpProperties(team.teamid);
  const values = useXmpValues(team.teamid, project.id);
  return (
    <>
      <HoldSetting teamUuid={team.teamid} projectId={project.id} canWrite={project.canWrite} />
      <EventStampSetting teamUuid={team.teamid} projectId={project.id} canWrite={project.canWrite} />
      <Suspense fallback={<LoadingSkeleton />}>
        {/* A new project (or team) starts a fresh editor: no edits or state carry over. */}
        <MetadataEditor
          key={`${team.teamid}:${project.id}`}
          teamUuid={team.teamid}
          projectId={project.id}
          canWrite={project.canWrite}
          properties={properties}
          valuesQuery={values}
        />
      </Suspense>
    </>
  );
}
