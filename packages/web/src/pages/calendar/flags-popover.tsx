// The team's own event flags (issue 27 item 8) of a default entry for owners and operators, as
// named checkboxes; every click saves that bit at once. One popover serves the whole table; its
// last line opens the flag list.
import { Button, Checkbox, Divider, FormControlLabel, FormGroup, Popover, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CalendarEntry, useEntryFlag } from '../../api/calendar.ts';
import type { TeamFlag } from '../../api/calendar-flags.ts';
import { flagLabel, hasFlag, withFlag } from './event-flags.ts';

export type OpenFlags = { anchor: HTMLElement; entry: CalendarEntry };

export function FlagsPopover({
  teamUuid,
  flags: teamFlags,
  open,
  onClose,
  onManage,
}: {
  teamUuid: string;
  flags: readonly TeamFlag[];
  open: OpenFlags | null;
  onClose: () => void;
  onManage: () => void;
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
        sx={{
          px: 2,
          py: 1,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          columnGap: 2,
        }}
        data-testid="entry-flags-list"
      >
        {teamFlags.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
            {t('flagList.none')}
          </Typography>
        )}
        {teamFlags.map((flag) => (
          <FormControlLabel
            key={flag.bit}
            label={flagLabel(t, flag)}
            control={
              <Checkbox
                size="small"
                checked={hasFlag(flags, flag.bit)}
                onChange={(event) => toggle(flag.bit, event.target.checked)}
                slotProps={{ input: { 'data-testid': `flag-${flag.bit}` } as object }}
              />
            }
          />
        ))}
      </FormGroup>
      <Divider />
      <Button
        size="small"
        onClick={() => {
          onClose();
          onManage();
        }}
        sx={{ m: 1 }}
        data-testid="entry-flags-manage"
      >
        {t('flagList.open')}
      </Button>
    </Popover>
  );
}
