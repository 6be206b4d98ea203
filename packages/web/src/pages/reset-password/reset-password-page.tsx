// /resetPassword?token=..&selector=.. (spec §2, §4 'Reset', §5 'Reset password'): set a new password.
import LinkOffIcon from '@mui/icons-material/LinkOff';
import LockResetIcon from '@mui/icons-material/LockReset';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import { Alert, Box, Button, Link, Stack, TextField } from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { z } from 'zod';
import { useResetPassword } from '../../api/account.ts';
import { ApiError } from '../../api/client.ts';
import { AuthCard, StatusCard } from '../../ui/page.tsx';
import { useCompleteLogin } from '../../ui/session.ts';
import { useSchemaForm } from '../../ui/use-schema-form.ts';
import { passwordField, passwordsEqual, passwordsEqualRule, repeatField } from '../../ui/validation.ts';

const resetSchema = z
  .object({ password: passwordField, repeat: repeatField })
  .refine(passwordsEqual, passwordsEqualRule);

export function ResetPasswordPage() {
  const { t } = useTranslation('resetPassword');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const selector = params.get('selector') ?? '';
  const { form, field } = useSchemaForm(resetSchema, { password: '', repeat: '' });
  const reset = useResetPassword({ handlesError: (error) => error instanceof ApiError });
  const completeLogin = useCompleteLogin();
  // A used or expired link says so (issue 27 item 7), anything else stays the spec's text.
  const [problem, setProblem] = useState<'linkUsed' | 'somethingWrong' | null>(null);
  const [done, setDone] = useState(false);

  const invalid = !form.formState.isValid;

  if (!token || !selector) {
    return (
      <StatusCard
        icon={<LinkOffIcon />}
        tone="warning"
        title={t('invalidParameters')}
        documentTitle={t('title')}
        text={t('requestNewLink')}
        testId="reset-invalid"
        actions={
          <Button component={RouterLink} to="/recover" variant="contained">
            {t('toRecover')}
          </Button>
        }
      />
    );
  }

  if (done) {
    return (
      <StatusCard
        icon={<TaskAltIcon />}
        tone="success"
        title={t('sent.title')}
        text={t('sent.text')}
        testId="reset-done"
        actions={
          <Button component={RouterLink} to="/" variant="contained">
            {t('sent.continue')}
          </Button>
        }
      />
    );
  }

  const submit = form.handleSubmit((values) => {
    setProblem(null);
    reset.mutate(
      { token, selector, password: values.password },
      {
        onSuccess: async (answer) => {
          if (!answer.logged_in) return setProblem('somethingWrong');
          await completeLogin();
          setDone(true);
        },
        onError: (error) =>
          setProblem(
            error instanceof ApiError && error.code === 'InvalidToken' ? 'linkUsed' : 'somethingWrong',
          ),
      },
    );
  });

  return (
    <AuthCard title={t('title')} subtitle={t('subtitle')} testId="reset-page">
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={1.5}>
          {problem && (
            <Alert
              severity="error"
              data-testid="reset-problem"
              data-problem={problem}
              action={
                <Button component={RouterLink} to="/recover" color="inherit" size="small">
                  {t('toRecover')}
                </Button>
              }
            >
              {t(problem)}
            </Alert>
          )}
          <TextField
            label={t('password')}
            type="password"
            autoComplete="new-password"
            required
            autoFocus
            {...field('password', ['repeat'])}
            slotProps={{ htmlInput: { maxLength: limits.passwordMax, 'data-testid': 'reset-password' } }}
          />
          <TextField
            label={t('repeatPassword')}
            type="password"
            autoComplete="new-password"
            required
            {...field('repeat')}
            slotProps={{ htmlInput: { maxLength: limits.passwordMax, 'data-testid': 'reset-repeat' } }}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={invalid || reset.isPending}
            startIcon={<LockResetIcon />}
            data-testid="reset-submit"
          >
            {t('submit')}
          </Button>
          <Link
            component={RouterLink}
            to="/login"
            underline="hover"
            variant="body2"
            sx={{ textAlign: 'center', pt: 1 }}
          >
            {t('backToLogin')}
          </Link>
        </Stack>
      </Box>
    </AuthCard>
  );
}
