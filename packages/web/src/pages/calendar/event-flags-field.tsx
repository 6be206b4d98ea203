// The event dialog's flags (issue 27 item 8): the team's own list as a multiple choice; the
// entry's `flags` bitmask is the form value. Owners and operators only (spec §6).
import { Autocomplete, Checkbox, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { type TeamFlag, useTeamFlags } from '../../api/calendar-flags.ts';
import { flagLabel, hasFlag } from './event-flags.ts';

export function EventFlagsField({
  teamUuid,
  value,
  onChange,
  disabled,
}: {
  teamUuid: string;
  value: number;
  onChange: (flags: number) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation('calendar');
  const flags = useTeamFlags(teamUuid);
  const options = flags.data ?? [];
  const chosen = options.filter((flag) => hasFlag(value, flag.bit));
  return (
    <Autocomplete<TeamFlag, true, false, false>
      multiple
      disableCloseOnSelect
      options={options}
      value={chosen}
      loading={flags.isPending}
      disabled={disabled}
      getOptionLabel={(flag) => flagLabel(t, flag)}
      isOptionEqualToValue={(option, item) => option.bit === item.bit}
      onChange={(_event, list) => onChange(list.reduce((mask, flag) => mask | (1 << flag.bit), 0))}
      renderOption={({ key, ...props }, flag, { selected }) => (
        <li key={key} {...props}>
          <Checkbox size="small" checked={selected} sx={{ mr: 1, p: 0.5 }} />
          {flagLabel(t, flag)}
        </li>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('event.flags')}
          helperText={t('flagList.fieldHint')}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'event-flags' },
          }}
        />
      )}
    />
  );
}
