// /recover (spec §2, §4 'Password recovery', §5 'Recover'): request a link to set a new password.
import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import { Alert, Box, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { z } from 'zod';
import { useRequestPasswordReset } from '../../api/account.ts';
import { ApiError } from '../../api/client.ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { AuthCard, StatusCard } from '../../ui/page.tsx';
import { useSchemaForm } from '../../ui/use-schema-form.ts';
import { emailField } from '../../ui/validation.ts';

const recoverSchema = z.object({ email: emailField });

function EmailSent() {
  const { t } = useTranslation('recover');
  return (
    <StatusCard
      icon={<MarkEmailReadOutlinedIcon />}
      tone="success"
      title={t('sent.title')}
      text={t('sent.text')}
      testId="recover-sent"
      actions={
        <Button component={RouterLink} to="/login" variant="contained">
          {t('backToLogin')}
        </Button>
      }
    />
  );
}

export function RecoverPage() {
  const { t } = useTranslation('recover');
  const { form, field } = useSchemaForm(recoverSchema, { email: '' });
  const request = useRequestPasswordReset({ handlesError: (error) => error instanceof ApiError });
  const [problem, setProblem] = useState<'somethingWrong' | 'tooManyRequests' | null>(null);
  const [sent, setSent] = useState(false);

  const submit = form.handleSubmit((values) => {
    setProblem(null);
    request.mutate(
      { email: values.email.trim(), language: currentLanguage() },
      {
        onSuccess: (answer) => (answer.result === 'OK' ? setSent(true) : setProblem('somethingWrong')),
        onError: (failure) => setProblem(isTooMany(failure) ? 'tooManyRequests' : 'somethingWrong'),
      },
    );
  });

  if (sent) return <EmailSent />;

  return (
    <AuthCard
      title={t('title')}
      subtitle={t('subtitle')}
      testId="recover-page"
      footer={
        <Link component={RouterLink} to="/login" underline="hover" variant="body2" sx={{ fontWeight: 600 }}>
          {t('backToLogin')}
        </Link>
      }
    >
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          {problem && (
            <Alert severity="error" data-testid="recover-problem">
              {t(`problems.${problem}`)}
            </Alert>
          )}
          <TextField
            label={t('email')}
            type="email"
            autoComplete="email"
            required
            autoFocus
            {...field('email')}
            slotProps={{ htmlInput: { maxLength: limits.emailField, 'data-testid': 'recover-email' } }}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={!form.formState.isValid || request.isPending}
            data-testid="recover-submit"
          >
            {t('submit')}
          </Button>
          <Typography variant="caption" color="text.secondary">
            {t('hint')}
          </Typography>
        </Stack>
      </Box>
    </AuthCard>
  );
}

const isTooMany = (error: Error) => error instanceof ApiError && error.code === 'TooManyRequests';
