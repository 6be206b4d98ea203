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
  TextField,
} from '@mui/material';
import { createExternalCalendarBody } from '@photorelay/contract/externalcalendars';
import { useSnackbar } from 'notistack';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateExternalCalendar } from '../../api/externalcalendars.ts';

export function AddExternalCalendarButton({ teamUuid }: { teamUuid: string }) {
  const { t } = useTranslation('externalCalendars');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        color="inherit"
        startIcon={<AddLinkIcon />}
        onClick={() => setOpen(true)}
        data-testid="calendar-add-external"
        sx={{ whiteSpace: 'nowrap' }}
      >
        {t('add.button')}
      </Button>
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
  const serverError = command.error ? command.error.message : '';

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
