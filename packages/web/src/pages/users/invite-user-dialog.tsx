// 'Add User' (spec §2, §4, §5): invite by e-mail; the answer says whether the user was already
// in the team, was added, or got an invitation mail.
import MailOutlineIcon from '@mui/icons-material/MailOutlined';
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  InputAdornment,
  TextField,
} from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInviteMember } from '../../api/teams.ts';
import { isInviteEmail } from '../../app/validation.ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { inviteResultMessage } from './invite-result.ts';

type Props = { open: boolean; teamUuid: string; onClose: () => void };

export function InviteUserDialog({ open, teamUuid, onClose }: Props) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation('common');
  const { enqueueSnackbar } = useSnackbar();
  const invite = useInviteMember(teamUuid);
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const valid = isInviteEmail(email);
  const showError = touched && email.trim() !== '' && !valid;

  const close = () => {
    onClose();
    setEmail('');
    setTouched(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    invite.mutate(
      { email: email.trim(), sendInvitationIfNeeded: true, language: currentLanguage() },
      {
        onSuccess: (answer) => {
          const message = inviteResultMessage(answer.result);
          enqueueSnackbar(t(message.key), { variant: message.variant });
          close();
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={invite.isPending ? undefined : close}
      fullWidth
      maxWidth="xs"
      data-testid="invite-dialog"
      aria-labelledby="invite-dialog-title"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="invite-dialog-title">{t('addUser')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('invite.text')}</DialogContentText>
          <TextField
            autoFocus
            type="email"
            label={t('invite.email')}
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              // Tell about a wrong address while typing once it looks complete.
              if (event.target.value.includes('.')) setTouched(true);
            }}
            onBlur={() => setTouched(true)}
            error={showError}
            helperText={showError ? t('invite.invalidEmail') : t('invite.hint')}
            slotProps={{
              htmlInput: { maxLength: limits.emailField, 'data-testid': 'invite-email' },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <MailOutlineIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={invite.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!valid || invite.isPending}
            startIcon={invite.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
            data-testid="invite-submit"
          >
            {t('invite.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
