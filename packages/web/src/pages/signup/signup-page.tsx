// /signup (spec §2, §4 'Registration', §5 'Signup', §8 'Signup'). With token, team and email in
// the query the form runs in invitation mode: no company, the e-mail is fixed.
import HowToRegOutlinedIcon from '@mui/icons-material/HowToRegOutlined';
import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import PersonAddAltOutlinedIcon from '@mui/icons-material/PersonAddAltOutlined';
import { Alert, Box, Button, Grid, Link, Stack, TextField, Typography } from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { useRegister } from '../../api/account.ts';
import { ApiError } from '../../api/client.ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { safeNext } from '../../ui/next-path.ts';
import { AuthCard, StatusCard } from '../../ui/page.tsx';
import { useCompleteLogin } from '../../ui/session.ts';
import { useSchemaForm } from '../../ui/use-schema-form.ts';
import {
  emailField,
  nameField,
  passwordField,
  passwordsEqual,
  passwordsEqualRule,
  repeatField,
  requiredText,
} from '../../ui/validation.ts';

/** Spec §5 'Signup': the company is asked for unless the user was invited. */
const signupSchema = (invitation: boolean) =>
  z
    .object({
      firstName: nameField,
      lastName: nameField,
      companyName: invitation ? z.string() : requiredText(limits.companyName),
      email: emailField,
      password: passwordField,
      repeat: repeatField,
    })
    .refine(passwordsEqual, passwordsEqualRule);
type SignupValues = z.infer<ReturnType<typeof signupSchema>>;

type SignupProblem = 'userAlreadyExists' | 'tooManyRequests' | 'sendMailFailed' | 'somethingWrong';

const problemFor = (error: Error): SignupProblem => {
  if (!(error instanceof ApiError)) return 'somethingWrong';
  if (error.code === 'UserAlreadyExists') return 'userAlreadyExists';
  if (error.code === 'TooManyRequests') return 'tooManyRequests';
  if (error.code === 'SendMailFailed') return 'sendMailFailed';
  return 'somethingWrong';
};

const browserTimezone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/Berlin';
  } catch {
    return 'Europe/Berlin';
  }
};

/** After signing up: a verification mail is on its way; invited users can sign in at once. */
function RegistrationSent({ email, invitation }: { email: string; invitation: boolean }) {
  const { t } = useTranslation('signup');
  const texts = invitation ? 'invitationDone' : 'sent';
  return (
    <StatusCard
      icon={invitation ? <HowToRegOutlinedIcon /> : <MarkEmailReadOutlinedIcon />}
      tone="success"
      title={t(`${texts}.title`)}
      text={t(`${texts}.text`, { email })}
      testId="signup-sent"
      actions={
        <Button component={RouterLink} to="/login" variant="contained">
          {t('sent.toLogin')}
        </Button>
      }
    />
  );
}

export function SignupPage() {
  const { t } = useTranslation('signup');
  const [params] = useSearchParams();
  const invitationToken = params.get('token') ?? '';
  const invitation = invitationToken !== '';
  const [schema] = useState(() => signupSchema(invitation));
  const { form, field } = useSchemaForm<SignupValues>(schema, {
    firstName: '',
    lastName: '',
    companyName: '',
    email: invitation ? (params.get('email') ?? '') : '',
    password: '',
    repeat: '',
  });
  const register = useRegister({ handlesError: (error) => error instanceof ApiError });
  const [problem, setProblem] = useState<SignupProblem | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const completeLogin = useCompleteLogin();
  const navigate = useNavigate();
  const invalid = !form.formState.isValid;

  const submit = form.handleSubmit((values) => {
    setProblem(null);
    const email = values.email.trim();
    register.mutate(
      {
        email,
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
        password: values.password,
        ...(invitation ? { invitationToken } : { companyName: values.companyName.trim() }),
        timezone: browserTimezone(),
        language: currentLanguage(),
      },
      {
        onSuccess: async (answer) => {
          if (answer.result !== 'OK') return setProblem('somethingWrong');
          if (!invitation) return setSentTo(email);
          // The invitation's sign-up signs in (issue 27 item 3): straight into the team.
          await completeLogin();
          navigate(safeNext(params.get('next')) ?? '/', { replace: true });
        },
        onError: (error) => setProblem(problemFor(error)),
      },
    );
  });

  if (sentTo !== null) return <RegistrationSent email={sentTo} invitation={invitation} />;

  return (
    <AuthCard
      title={invitation ? t('invitationTitle') : t('title')}
      subtitle={invitation ? t('invitationSubtitle') : t('subtitle')}
      maxWidth={560}
      testId="signup-page"
      footer={
        <Typography variant="body2" color="text.secondary">
          {t('haveAccount')}{' '}
          <Link component={RouterLink} to="/login" underline="always" sx={{ fontWeight: 600 }}>
            {t('signInLink')}
          </Link>
        </Typography>
      }
    >
      <Box component="form" onSubmit={submit} noValidate data-testid="signup-form">
        {problem && (
          <Alert severity="error" sx={{ mb: 2.5 }} data-testid="signup-problem">
            {t(`problems.${problem}`)}
          </Alert>
        )}
        <Grid container columnSpacing={2} rowSpacing={0.5}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              label={t('fields.firstName')}
              autoComplete="given-name"
              required
              autoFocus
              {...field('firstName')}
              slotProps={{ htmlInput: { maxLength: limits.nameField, 'data-testid': 'signup-firstName' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              label={t('fields.lastName')}
              autoComplete="family-name"
              required
              {...field('lastName')}
              slotProps={{ htmlInput: { maxLength: limits.nameField, 'data-testid': 'signup-lastName' } }}
            />
          </Grid>
          {!invitation && (
            <Grid size={12}>
              <TextField
                label={t('fields.companyName')}
                autoComplete="organization"
                required
                {...field('companyName')}
                slotProps={{
                  htmlInput: { maxLength: limits.companyName, 'data-testid': 'signup-companyName' },
                }}
              />
            </Grid>
          )}
          <Grid size={12}>
            <TextField
              label={t('fields.email')}
              type="email"
              autoComplete="email"
              required
              disabled={invitation}
              {...field('email')}
              slotProps={{
                htmlInput: {
                  maxLength: limits.emailField,
                  readOnly: invitation,
                  'data-testid': 'signup-email',
                },
              }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              label={t('fields.password')}
              type="password"
              autoComplete="new-password"
              required
              {...field('password', ['repeat'])}
              slotProps={{ htmlInput: { maxLength: limits.passwordMax, 'data-testid': 'signup-password' } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <TextField
              label={t('fields.repeatPassword')}
              type="password"
              autoComplete="new-password"
              required
              {...field('repeat')}
              slotProps={{ htmlInput: { maxLength: limits.passwordMax, 'data-testid': 'signup-repeat' } }}
            />
          </Grid>
        </Grid>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Typography variant="caption" color="text.secondary" sx={{ lineHeight: 1.6 }}>
            <Trans
              t={t}
              i18nKey="consent"
              components={{
                terms: <Link component={RouterLink} to="/termsandconditions" underline="always" />,
                privacy: <Link component={RouterLink} to="/privacy" underline="always" />,
              }}
            />
          </Typography>
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={invalid || register.isPending}
            startIcon={<PersonAddAltOutlinedIcon />}
            data-testid="signup-submit"
          >
            {register.isPending ? t('submitting') : invitation ? t('submitInvitation') : t('submit')}
          </Button>
        </Stack>
      </Box>
    </AuthCard>
  );
}
