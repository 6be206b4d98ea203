// The Metadata tab of the project page (spec §2 'Project tabs'). The editor and the property
// catalog it checks inputs against load with the tab, not with the project page.
import type { Project } from '@photorelay/contract/projects';
import { lazy, Suspense } from 'react';
import { PageSpinner } from '../../ui/page.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { EventStampSetting } from './metadata/event-stamp-setting.tsx';
import { HoldSetting } from './metadata/hold-setting.tsx';

const MetadataEditor = lazy(() =>
  import('./metadata/metadata-editor.tsx').then((module) => ({ default: module.MetadataEditor })),
);

export function MetadataTab({ project }: { project: Project }) {
  const team = useCurrentTeam();
  return (
    <Suspense fallback={<PageSpinner />}>
      <HoldSetting teamUuid={team.teamid} projectId={project.id} canWrite={project.canWrite} />
      <EventStampSetting teamUuid={team.teamid} projectId={project.id} canWrite={project.canWrite} />
      {/* A new project (or team) starts a fresh editor: no edits or state carry over. */}
      <MetadataEditor
        key={`${team.teamid}:${project.id}`}
        teamUuid={team.teamid}
        projectId={project.id}
        canWrite={project.canWrite}
      />
    </Suspense>
  );
}
