// The project's script tab (spec §2 'Project tabs: Script': upload, download, remove).
import type { Project } from '../../api/projects.ts';
import { ScriptPanel } from '../../ui/script-panel.tsx';

export function ScriptTab({ project, teamUuid }: { project: Project; teamUuid: string }) {
  return (
    <div data-testid="script-tab" data-project={project.id}>
      <ScriptPanel
        teamUuid={teamUuid}
        owner={{ kind: 'project', id: project.id }}
        canWrite={project.canWrite}
      />
    </div>
  );
}
