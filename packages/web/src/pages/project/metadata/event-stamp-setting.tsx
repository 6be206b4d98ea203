// Issue 13: the project setting "stamp the booked event". On: a picture shot during a booked
// event of the team calendar gets the event's fields where the template leaves them unset.
import { Card, FormControlLabel, Switch, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useEventStamping, useSaveEventStamping } from '../../../api/externalcalendars.ts';

export function EventStampSetting({
  teamUuid,
  projectId,
  canWrite,
}: {
  teamUuid: string;
  projectId: number;
  canWrite: boolean;
}) {
  const { t } = useTranslation('externalCalendars');
  const setting = useEventStamping(teamUuid, projectId);
  const save = useSaveEventStamping(teamUuid, projectId);
  return (
    <Card variant="outlined" sx={{ px: 2, py: 1, mb: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={setting.data?.eventStamping ?? false}
            disabled={!canWrite || setting.isPending || save.isPending}
            onChange={(event) => save.mutate({ eventStamping: event.target.checked })}
            slotProps={{ input: { 'aria-describedby': 'event-stamping-help' } }}
            data-testid="event-stamping"
          />
        }
        label={t('eventStamp.label')}
      />
      <Typography id="event-stamping-help" variant="body2" color="text.secondary">
        {t('eventStamp.help')}
      </Typography>
    </Card>
  );
}
