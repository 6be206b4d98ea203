// The project's protocol (spec §2 'Project tabs: Protocol', §4 'Job state'). Issue 28: one
// picture a row with its destinations (picture-log.tsx); the paged table of every delivery job
// stays one click away (?view=deliveries, deliveries-view.tsx). Both ask every second while the
// page is visible.
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import { Card, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Project } from '../../api/projects.ts';
import { CardHeading } from '../../ui/card-heading.tsx';
import { DeliveriesView } from './deliveries-view.tsx';
import { PictureLog } from './picture-log.tsx';

export function ProtocolTab({ project, teamUuid }: { project: Project; teamUuid: string }) {
  const { t } = useTranslation('jobs');
  const { t: tl } = useTranslation('jobLog');
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'deliveries' ? 'deliveries' : 'pictures';
  const viewToggle = (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={view}
      aria-label={tl('view.label')}
      onChange={(_event, next: string | null) => {
        if (!next) return;
        const search = new URLSearchParams(params);
        if (next === 'deliveries') search.set('view', 'deliveries');
        else search.delete('view');
        setParams(search, { replace: true });
      }}
    >
      <ToggleButton value="pictures" data-testid="protocol-view-pictures" sx={{ py: 0.25 }}>
        {tl('view.pictures')}
      </ToggleButton>
      <ToggleButton value="deliveries" data-testid="protocol-view-deliveries" sx={{ py: 0.25 }}>
        {tl('view.deliveries')}
      </ToggleButton>
    </ToggleButtonGroup>
  );
  if (view === 'deliveries')
    return <DeliveriesView project={project} teamUuid={teamUuid} viewToggle={viewToggle} />;
  return (
    <Card data-testid="protocol-tab">
      <CardHeading
        icon={<HistoryOutlinedIcon color="primary" />}
        title={t('title')}
        subtitle={tl('subtitle')}
      />
      <PictureLog project={project} teamUuid={teamUuid} viewToggle={viewToggle} />
    </Card>
  );
}
