// The project's script tab (spec §2 'Project tabs: Script': upload, download, remove).
// Placeholder until the script runner's screen is built.
import CodeOutlinedIcon from '@mui/icons-material/CodeOutlined';
import { Card } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../api/projects.ts';
import { StatusPanel } from '../../app/page.tsx';

export function ScriptTab({ project }: { project: Project }) {
  const { t } = useTranslation('projects');
  return (
    <Card data-testid="script-tab" data-project={project.id}>
      <StatusPanel
        icon={<CodeOutlinedIcon />}
        title={t('placeholder.scriptTitle')}
        text={t('placeholder.text')}
      />
    </Card>
  );
}
