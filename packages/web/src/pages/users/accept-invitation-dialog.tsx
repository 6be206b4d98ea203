// Debug mode (spec §2, §6): force-accepts a pending invitation, as if the invitee had signed up.
import BugReportOutlinedIcon from '@mui/icons-material/BugReportOutlined';
import { Alert, Stack, TextField } from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TeamMember, useForceAcceptInvite } from '../../api/teams.ts';
import { FormDialog } from '../../ui/form-dialog.tsx';
import { hasErrors, validatePassword, validateRequired } from '../../ui/validation.ts';

type Props = { member: TeamMember; teamUuid: string; onClose: () => void };

export function AcceptInvitationDialog({ member, teamUuid, onClose }: Props) {
  const { t } = useTranslation('users');
  const { t: tv } = useTranslation('validation');
  const { enqueueSnackbar } = useSnackbar();
  const accept = useForceAcceptInvite(teamUuid);
  const [firstName, setFirstName] = useState(member.firstname || member.email.split('@')[0]);
  const [lastName, setLastName] = useState(member.lastname || 'Test');
  const [password, setPassword] = useState('');
  const errors = {
    firstName: validateRequired(firstName, limits.nameField),
    lastName: validateRequired(lastName, limits.nameField),
    password: password ? validatePassword(password) : null,
  };
  const invalid = hasErrors(errors) || !password;

  const submit = () => {
    if (invalid) return;
    accept.mutate(
      {
        email: member.email,
        firstName: firstName.trim(),
        lastName: lastName.trim(),
        password,
        timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
      {
        onSuccess: () => {
          enqueueSnackbar(t('accept.done', { email: member.email }), { variant: 'success' });
          onClose();
        },
      },
    );
  };

  return (
    <FormDialog
      title={t('accept.title')}
      submitLabel={t('accept.submit')}
      submitDisabled={invalid}
      busy={accept.isPending}
      onSubmit={submit}
      onClose={onClose}
      testId="accept-dialog"
      submitTestId="accept-submit"
    >
      <Alert severity="warning" icon={<BugReportOutlinedIcon />} sx={{ mb: 2.5 }}>
        {t('accept.text', { email: member.email })}
      </Alert>
      <Stack spacing={2}>
        <TextField
          label={t('accept.firstName')}
          value={firstName}
          onChange={(event) => setFirstName(event.target.value)}
          error={Boolean(errors.firstName)}
          helperText={errors.firstName ? tv(errors.firstName) : undefined}
        />
        <TextField
          label={t('accept.lastName')}
          value={lastName}
          onChange={(event) => setLastName(event.target.value)}
          error={Boolean(errors.lastName)}
          helperText={errors.lastName ? tv(errors.lastName) : undefined}
        />
        <TextField
          type="password"
          label={t('accept.password')}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={Boolean(errors.password)}
          helperText={errors.password ? tv(errors.password) : ' '}
          autoComplete="new-password"
          slotProps={{ htmlInput: { 'data-testid': 'accept-password' } }}
        />
      </Stack>
    </FormDialog>
  );
}
