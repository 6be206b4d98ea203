// 'Add User' (spec §2, §4, §5): invite by e-mail; the answer says whether the user was already
// in the team, was added, or got an invitation mail.
import MailOutlineIcon from '@mui/icons-material/MailOutlined';
import { DialogContentText, InputAdornment, TextField } from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInviteMember } from '../../api/teams.ts';
import { FormDialog } from '../../ui/form-dialog.tsx';
import { isInviteEmail } from '../../ui/validation.ts';
import { inviteResultMessage } from './invite-result.ts';

type Props = { open: boolean; teamUuid: string; onClose: () => void };

export function InviteUserDialog({ open, teamUuid, onClose }: Props) {
  const { t } = useTranslation('users');
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

  const submit = () => {
    if (!valid) return;
    invite.mutate(
      // No language: the server writes to an account in its own, to a new address in the owner's.
      { email: email.trim(), sendInvitationIfNeeded: true },
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
    <FormDialog
      open={open}
      title={t('addUser')}
      submitLabel={t('invite.submit')}
      submitDisabled={!valid}
      busy={invite.isPending}
      onSubmit={submit}
      onClose={close}
      testId="invite-dialog"
      submitTestId="invite-submit"
    >
      <DialogContentText sx={{ mb: 2 }}>{t('invite.text')}</DialogContentText>
      <TextField
        autoFocus
        type="email"
        label={t('invite.email')}
        value={email}
        // One rule (issue 16 bugs): the message appears once the field was left, then follows typing.
        onChange={(event) => setEmail(event.target.value)}
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
    </FormDialog>
  );
}
