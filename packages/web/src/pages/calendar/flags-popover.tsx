// The 17 event flags (spec §3) of a default entry for owners and operators, as named checkboxes;
// every click saves that bit at once. One popover serves the whole table.
import { Checkbox, FormControlLabel, FormGroup, Popover } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CalendarEntry, useEntryFlag } from '../../api/calendar.ts';
import { eventFlags, hasFlag, withFlag } from './event-flags.ts';

export type OpenFlags = { anchor: HTMLElement; entry: CalendarEntry };

export function FlagsPopover({
  teamUuid,
  open,
  onClose,
}: {
  teamUuid: string;
  open: OpenFlags | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('calendar');
  const { enqueueSnackbar } = useSnackbar();
  const save = useEntryFlag(teamUuid);
  // Shown at once; the listing's reload confirms it.
  const [flags, setFlags] = useState(open?.entry.flags ?? 0);
  useEffect(() => setFlags(open?.entry.flags ?? 0), [open]);

  const toggle = (bit: number, on: boolean) => {
    if (!open) return;
    setFlags((current) => withFlag(current, bit, on));
    save.mutate(
      { id: open.entry.dbcalendarentryid, bit, value: on },
      { onSuccess: () => enqueueSnackbar(t('flags.saved'), { variant: 'success' }) },
    );
  };

  return (
    <Popover
      open={open !== null}
      anchorEl={open?.anchor ?? null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
    >
      <FormGroup
        sx={{ px: 2, py: 1, display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 2 }}
        data-testid="entry-flags-list"
      >
        {eventFlags.map((flag, bit) => (
          <FormControlLabel
            key={flag}
            label={t(`flags.${flag}`)}
            control={
              <Checkbox
                size="small"
                checked={hasFlag(flags, bit)}
                onChange={(event) => toggle(bit, event.target.checked)}
                slotProps={{ input: { 'data-testid': `flag-${bit}` } as object }}
              />
            }
          />
        ))}
      </FormGroup>
    </Popover>
  );
}
