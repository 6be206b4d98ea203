// 'Add external calendar' (spec §2 dialogs, §5 "External calendar URL", §8: the server's failure
// text under the URL field). For owners and operators only; the list with refresh and delete is
// calendar-list.tsx.
import AddLinkIcon from '@mui/icons-material/AddLink';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { createExternalCalendarBody, externalCalendarTexts } from '@photorelay/contract/externalcalendars';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateExternalCalendar, useExternalCalendars } from '../../api/externalcalendars.ts';

/** The team's use of its caps: feeds and the entries imported from them all together. */
function useImportUsage(teamUuid: string) {
  const list = useExternalCalendars(teamUuid);
  const calendars = list.data?.calendars ?? [];
  return {
    loaded: list.isSuccess,
    calendars: calendars.length,
    entries: calendars.reduce((sum, calendar) => sum + calendar.entryCount, 0),
  };
}

export function AddExternalCalendarButton({ teamUuid }: { teamUuid: string }) {
  const { t, i18n } = useTranslation('externalCalendars');
  const [open, setOpen] = useState(false);
  const usage = useImportUsage(teamUuid);
  const full = usage.calendars >= limits.externalCalendarsPerTeam;
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <>
      <Stack sx={{ alignItems: 'flex-end' }}>
        <Button
          color="inherit"
          startIcon={<AddLinkIcon />}
          onClick={() => setOpen(true)}
          disabled={full}
          title={full ? t('usage.full', { max: limits.externalCalendarsPerTeam }) : undefined}
          data-testid="calendar-add-external"
          sx={{ whiteSpace: 'nowrap' }}
        >
          {t('add.button')}
        </Button>
        {usage.loaded && (
          <Typography variant="caption" color="text.secondary" data-testid="external-calendar-usage">
            {t('usage.calendars', { count: usage.calendars, max: limits.externalCalendarsPerTeam })}
            {' · '}
            {t('usage.entries', {
              entries: number(usage.entries),
              max: number(limits.importedEntriesPerTeam),
            })}
          </Typography>
        )}
      </Stack>
      {open && <AddExternalCalendarDialog teamUuid={teamUuid} onClose={() => setOpen(false)} />}
    </>
  );
}

function AddExternalCalendarDialog({ teamUuid, onClose }: { teamUuid: string; onClose: () => void }) {
  const { t } = useTranslation('externalCalendars');
  const { enqueueSnackbar } = useSnackbar();
  const command = useCreateExternalCalendar(teamUuid);
  const [url, setUrl] = useState('');
  const valid = createExternalCalendarBody.safeParse({ calendarUrl: url }).success;
  const { i18n } = useTranslation();
  // The caps' refusals in the user's language; the feed's own failures are the server's words.
  const capTexts: Record<string, string> = {
    [externalCalendarTexts.tooManyCalendars]: t('usage.full', { max: limits.externalCalendarsPerTeam }),
    [externalCalendarTexts.tooManyEntries]: t('usage.tooManyEntries', {
      max: limits.importedEntriesPerTeam.toLocaleString(i18n.language),
    }),
  };
  const serverError = command.error ? (capTexts[command.error.message] ?? command.error.message) : '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || command.isPending) return;
    command.create(url.trim(), {
      onSuccess: (detail) => {
        enqueueSnackbar(t('add.added', { name: detail.name, count: detail.inserted }), {
          variant: 'success',
        });
        onClose();
      },
    });
  };

  return (
    <Dialog open onClose={command.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <form onSubmit={submit} data-testid="external-calendar-dialog">
        <DialogTitle>{t('add.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('add.intro')}</DialogContentText>
          <TextField
            autoFocus
            fullWidth
            label={t('add.url')}
            placeholder="webcal://example.org/fixtures.ics"
            value={url}
            onChange={(event) => {
              setUrl(event.target.value);
              if (command.error) command.reset();
            }}
            disabled={command.isPending}
            error={Boolean(serverError) || (url.length > 0 && !valid)}
            helperText={serverError || (url.length > 0 && !valid ? t('add.urlTooShort') : ' ')}
            slotProps={{ htmlInput: { 'data-testid': 'external-calendar-url', spellCheck: false } }}
          />
          {command.isPending && <LinearProgress aria-label={t('add.working')} sx={{ mt: 1 }} />}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={command.isPending}>
            {t('add.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!valid || command.isPending}
            data-testid="external-calendar-submit"
          >
            {t('add.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
