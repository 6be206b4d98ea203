// Issue 15: the project setting "hold pictures that cannot be stamped". Off: such a picture is
// delivered as it came and its jobs say so; on: its jobs wait as 'held' until released.
import { Card, FormControlLabel, Switch, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useMetadataSettings, useSaveMetadataSettings } from '../../../api/metadata-settings.ts';

export function HoldSetting({
  teamUuid,
  projectId,
  canWrite,
}: {
  teamUuid: string;
  projectId: number;
  canWrite: boolean;
}) {
  const { t } = useTranslation('metadataTab');
  const settings = useMetadataSettings(teamUuid, projectId);
  const save = useSaveMetadataSettings(teamUuid, projectId);
  const checked = settings.data?.holdUnstampable ?? false;
  return (
    <Card variant="outlined" sx={{ px: 2, py: 1, mb: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={checked}
            disabled={!canWrite || settings.isPending || save.isPending}
            onChange={(event) => save.mutate({ holdUnstampable: event.target.checked })}
            slotProps={{ input: { 'aria-describedby': 'hold-unstampable-help' } }}
            data-testid="hold-unstampable"
          />
        }
        label={t('holdUnstampable.label')}
      />
      <Typography id="hold-unstampable-help" variant="body2" color="text.secondary">
        {t('holdUnstampable.help')}
      </Typography>
    </Card>
  );
}
