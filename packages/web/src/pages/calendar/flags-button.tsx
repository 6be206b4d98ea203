// The 17 event flags (spec §3) of a default entry for owners and operators: a compact count in the
// row that opens the named checkboxes; every click saves at once.
import FlagOutlinedIcon from '@mui/icons-material/FlagOutlined';
import { Button, Checkbox, FormControlLabel, FormGroup, Popover } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CalendarEntry, useEntryFlag } from '../../api/calendar.ts';
import { countFlags, eventFlags, hasFlag, withFlag } from './event-flags.ts';

export function FlagsButton({ teamUuid, entry }: { teamUuid: string; entry: CalendarEntry }) {
  const { t } = useTranslation('calendar');
  const { enqueueSnackbar } = useSnackbar();
  const save = useEntryFlag(teamUuid);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Shown at once; the listing's reload confirms it.
  const [flags, setFlags] = useState(entry.flags);
  const shown = save.isPending || anchor ? flags : entry.flags;

  const toggle = (bit: number, on: boolean) => {
    const next = withFlag(shown, bit, on);
    setFlags(next);
    save.mutate(
      { id: entry.dbcalendarentryid, bit, value: on },
      { onSuccess: () => enqueueSnackbar(t('flags.saved'), { variant: 'success' }) },
    );
  };

  return (
    <>
      <Button
        size="small"
        color="inherit"
        startIcon={<FlagOutlinedIcon fontSize="small" />}
        onClick={(event) => {
          setFlags(entry.flags);
          setAnchor(event.currentTarget);
        }}
        aria-label={t('actions.flags')}
        data-testid="entry-flags"
        sx={{ minWidth: 0, color: 'text.secondary', whiteSpace: 'nowrap' }}
      >
        {t('flags.count', { count: countFlags(entry.flags), total: eventFlags.length })}
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
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
                  checked={hasFlag(shown, bit)}
                  onChange={(event) => toggle(bit, event.target.checked)}
                  slotProps={{ input: { 'data-testid': `flag-${bit}` } as object }}
                />
              }
            />
          ))}
        </FormGroup>
      </Popover>
    </>
  );
}
