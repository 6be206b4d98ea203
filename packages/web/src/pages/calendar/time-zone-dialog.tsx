// The team's time zone (migration 0012: teams.time_zone, default Europe/Berlin), set by owners and
// operators; every date and time of the calendar is shown in it.
import { Autocomplete, TextField } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveTimeZone } from '../../api/calendar.ts';
import { FormDialog } from '../../ui/form-dialog.tsx';
import { timeZones } from './calendar-time.ts';

export function TimeZoneDialog({
  teamUuid,
  zone,
  onClose,
}: {
  teamUuid: string;
  zone: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('calendar');
  const { t: tc } = useTranslation('common');
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveTimeZone(teamUuid);
  const options = useMemo(timeZones, []);
  const [value, setValue] = useState(zone);
  return (
    <FormDialog
      title={t('timeZone.title')}
      subtitle={t('timeZone.subtitle')}
      submitLabel={tc('actions.save')}
      submitDisabled={!options.includes(value)}
      busy={save.isPending}
      onSubmit={() =>
        save.mutate(value, {
          onSuccess: () => {
            enqueueSnackbar(t('timeZone.saved'), { variant: 'success' });
            onClose();
          },
        })
      }
      onClose={onClose}
      testId="time-zone-dialog"
      submitTestId="time-zone-save"
    >
      <Autocomplete
        options={options}
        value={value}
        disableClearable
        onChange={(_event, next) => setValue(next)}
        renderInput={(params) => <TextField {...params} label={t('timeZone.label')} sx={{ mt: 1 }} />}
      />
    </FormDialog>
  );
}
