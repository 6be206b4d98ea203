// The Metadata tab of the project page (spec §2 'Project tabs'). The editor and the property
// catalog it checks inputs against load with the tab, not with the project page; the tab's data
// is fetched beside the editor's code, not after it (issue 16: inputs in under 1 s).
import type { Project } from '@photorelay/contract/projects';
import { useXmpProperties, useXmpValues } from '../../api/metadata.ts';
import { useCurrentTeam } from '../../ui/session.ts';
import { EventStampSetting } from './metadata/event-stamp-setting.tsx';
import { HoldSetting } from './metadata/hold-setting.tsx';
import { VariableHoldSetting } from './metadata/variable-hold-setting.tsx';
import { MetadataEditor } from './prefetch.ts';

export function MetadataTab({ project }: { project: Project }) {
  const team = useCurrentTeam();
  const properties = useXmpProperties(team.teamid);
  const values = useXmpValues(team.teamid, project.id);
  return (
    <>
      <HoldSetting teamUuid={team.teamid} projectId={project.id} canWrite={project.canWrite} />
      <VariableHoldSetting teamUuid={team.teamid} projectId={project.id} canWrite={project.canWrite} />
      <EventStampSetting teamUuid={team.teamid} projectId={project.id} canWrite={project.canWrite} />
      {/* A new project (or team) starts a fresh editor: no edits or state carry over. */}
      <MetadataEditor
        key={`${team.teamid}:${project.id}`}
        teamUuid={team.teamid}
        projectId={project.id}
        canWrite={project.canWrite}
        properties={properties}
        valuesQuery={values}
      />
    </>
  );
}
