// The team's flag list (issue 27 item 8): owners and operators add, rename and remove the flags
// their events can carry. A flag still set on events is not removed silently: the dialog says
// where it is set and asks first (the server refuses without that answer too).
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlineOutlined';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TeamFlag, useChangeTeamFlags, useTeamFlags } from '../../api/calendar-flags.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { flagLabel } from './event-flags.ts';

function FlagRow({
  flag,
  label,
  busy,
  onRename,
  onRemove,
}: {
  flag: TeamFlag;
  label: string;
  busy: boolean;
  onRename: (name: string) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('calendar');
  const [name, setName] = useState(label);
  const commit = () => {
    const trimmed = name.trim();
    if (!trimmed) setName(label);
    else if (trimmed !== label) onRename(trimmed);
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid={`flag-row-${flag.bit}`}>
      <TextField
        size="small"
        value={name}
        onChange={(event) => setName(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit();
          }
        }}
        disabled={busy}
        slotProps={{
          htmlInput: {
            maxLength: limits.flagName,
            'aria-label': t('flagList.nameOf', { name: label }),
            'data-testid': `flag-name-${flag.bit}`,
          },
        }}
        sx={{ flex: 1, minWidth: 0 }}
      />
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ minWidth: 64, textAlign: 'right' }}
        data-testid={`flag-used-${flag.bit}`}
      >
        {flag.usedBy > 0 ? t('flagList.usedBy', { count: flag.usedBy }) : t('flagList.unused')}
      </Typography>
      <Tooltip title={t('flagList.remove', { name: label })}>
        <span>
          <IconButton
            onClick={onRemove}
            disabled={busy}
            aria-label={t('flagList.remove', { name: label })}
            data-testid={`flag-remove-${flag.bit}`}
          >
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
    </Stack>
  );
}

export function FlagListDialog({ teamUuid, onClose }: { teamUuid: string; onClose: () => void }) {
  const { t } = useTranslation('calendar');
  const { t: tc } = useTranslation('common');
  const { enqueueSnackbar } = useSnackbar();
  const flags = useTeamFlags(teamUuid);
  const change = useChangeTeamFlags(teamUuid);
  const [added, setAdded] = useState('');
  const [removing, setRemoving] = useState<TeamFlag | null>(null);
  const list = flags.data ?? [];
  const full = list.length > limits.flagBitMax;

  const remove = (flag: TeamFlag, force: boolean) =>
    change.mutate(
      { kind: 'remove', bit: flag.bit, force },
      {
        onSuccess: () => {
          enqueueSnackbar(t('flagList.removed', { name: flagLabel(t, flag) }), { variant: 'success' });
          setRemoving(null);
        },
      },
    );
  const add = () => {
    const name = added.trim();
    if (!name) return;
    change.mutate(
      { kind: 'add', name },
      {
        onSuccess: () => {
          enqueueSnackbar(t('flagList.added', { name }), { variant: 'success' });
          setAdded('');
        },
      },
    );
  };
  const where = (flag: TeamFlag) => {
    const shown = flag.usedIn.map((entry) => `${entry.summary || '—'} (${entry.startDate})`).join(', ');
    const more = flag.usedBy - flag.usedIn.length;
    return more > 0 ? t('flagList.andMore', { list: shown, count: more }) : shown;
  };

  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="flag-list-title"
      data-testid="flag-list-dialog"
    >
      <DialogTitle id="flag-list-title">{t('flagList.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('flagList.intro')}
        </Typography>
        <Stack spacing={1}>
          {list.map((flag) => (
            <FlagRow
              key={`${flag.bit}/${flag.name}/${flag.preset}`}
              flag={flag}
              label={flagLabel(t, flag)}
              busy={change.isPending}
              onRename={(name) =>
                change.mutate(
                  { kind: 'rename', bit: flag.bit, name },
                  { onSuccess: () => enqueueSnackbar(t('flagList.renamed'), { variant: 'success' }) },
                )
              }
              onRemove={() => (flag.usedBy > 0 ? setRemoving(flag) : remove(flag, false))}
            />
          ))}
        </Stack>
        <Box
          component="form"
          onSubmit={(event) => {
            event.preventDefault();
            add();
          }}
          sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap' }}
        >
          <TextField
            size="small"
            label={t('flagList.newName')}
            value={added}
            onChange={(event) => setAdded(event.target.value)}
            disabled={full || change.isPending}
            helperText={full ? t('flagList.full', { count: limits.flagBitMax + 1 }) : ' '}
            slotProps={{ htmlInput: { maxLength: limits.flagName, 'data-testid': 'flag-new-name' } }}
            sx={{ flex: '1 1 200px' }}
          />
          <Button
            type="submit"
            variant="outlined"
            disabled={full || change.isPending || !added.trim()}
            data-testid="flag-add"
            sx={{ alignSelf: 'flex-start', mt: 0.25 }}
          >
            {t('flagList.add')}
          </Button>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} data-testid="flag-list-close">
          {tc('actions.close')}
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={removing !== null}
        title={t('flagList.inUseTitle')}
        message={
          removing
            ? t('flagList.inUseMessage', {
                name: flagLabel(t, removing),
                count: removing.usedBy,
                where: where(removing),
              })
            : ''
        }
        confirmLabel={t('flagList.removeAnyway')}
        cancelLabel={tc('actions.cancel')}
        busy={change.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove(removing, true)}
        testId="flag-in-use-dialog"
      />
    </Dialog>
  );
}
