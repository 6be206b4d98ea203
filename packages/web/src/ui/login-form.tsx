// The sign-in form, shown on /login and on the landing page (spec §4 'Login', §8).
import LoginIcon from '@mui/icons-material/Login';
import { Alert, Box, Button, Checkbox, FormControlLabel, Link, Stack, TextField } from '@mui/material';
import { postLoginBody } from '@photorelay/contract/account';
import { limits } from '@photorelay/contract/limits';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { useLogin, useResendVerification } from '../api/account.ts';
import { ApiError } from '../api/client.ts';
import { safeNext } from './next-path.ts';
import { useCompleteLogin } from './session.ts';
import { useSchemaForm } from './use-schema-form.ts';

/** The server's login body; Sign in needs a password (spec §5). */
const loginSchema = postLoginBody.extend({
  password: z.string().min(1).pipe(postLoginBody.shape.password),
  rememberme: z.boolean(),
});

type LoginProblem = 'invalidLogin' | 'emailNotVerified' | 'tooManyRequests';

// Network failures stay global ('FAILED'); every answer with an error field is shown here.
const loginErrorMeta = { handlesError: (error: Error) => error instanceof ApiError };

export function LoginForm({ autoFocus = false }: { autoFocus?: boolean }) {
  const { t, i18n } = useTranslation('login');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const login = useLogin(loginErrorMeta);
  const completeLogin = useCompleteLogin();
  const { form, input } = useSchemaForm(loginSchema, { email: '', password: '', rememberme: true });
  const [problem, setProblem] = useState<LoginProblem | null>(null);
  const [finishing, setFinishing] = useState(false);
  const resend = useResendVerification();

  const submit = form.handleSubmit(({ email, password, rememberme }) => {
    setProblem(null);
    login.mutate(
      { email: email.trim(), password, rememberme },
      {
        onSuccess: async () => {
          setFinishing(true);
          try {
            await completeLogin();
            // Back to the page that asked for a sign-in (an invitation link, a bookmark).
            navigate(safeNext(params.get('next')) ?? '/', { replace: true });
          } finally {
            setFinishing(false);
          }
        },
        onError: (error) => {
          if (!(error instanceof ApiError)) return;
          // Spec §8: EmailNotVerified sets its own flag; any other failure is an invalid login.
          if (error.code === 'EmailNotVerified') setProblem('emailNotVerified');
          else if (error.code === 'TooManyRequests') setProblem('tooManyRequests');
          else setProblem('invalidLogin');
        },
      },
    );
  });

  const busy = login.isPending || finishing;
  return (
    <Box component="form" onSubmit={submit} noValidate data-testid="login-form">
      <Stack spacing={2.25}>
        {problem && (
          <Alert
            severity="warning"
            data-testid={`login-${problem}`}
            action={
              problem === 'emailNotVerified' && !resend.isSuccess ? (
                <Button
                  color="inherit"
                  size="small"
                  disabled={resend.isPending}
                  onClick={() =>
                    resend.mutate({
                      email: form.getValues('email').trim(),
                      language: i18n.language === 'de' ? 'de' : 'en',
                    })
                  }
                  data-testid="login-resend-verification"
                >
                  {t('resendVerification')}
                </Button>
              ) : undefined
            }
          >
            {t(`problems.${problem}`)}
            {problem === 'emailNotVerified' && resend.isSuccess && (
              <Box component="span" sx={{ display: 'block' }} data-testid="login-verification-sent">
                {t('verificationSent')}
              </Box>
            )}
          </Alert>
        )}
        <TextField
          label={t('email')}
          type="email"
          autoComplete="username"
          autoFocus={autoFocus}
          {...input('email')}
          slotProps={{ htmlInput: { maxLength: limits.emailField, 'data-testid': 'login-email' } }}
        />
        <TextField
          label={t('password')}
          type="password"
          autoComplete="current-password"
          {...input('password')}
          slotProps={{ htmlInput: { maxLength: limits.passwordMax, 'data-testid': 'login-password' } }}
        />
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <FormControlLabel
            control={
              <Controller
                control={form.control}
                name="rememberme"
                render={({ field: box }) => (
                  <Checkbox
                    checked={box.value}
                    onChange={(event) => box.onChange(event.target.checked)}
                    onBlur={box.onBlur}
                    size="small"
                  />
                )}
              />
            }
            label={t('rememberMe')}
            slotProps={{ typography: { variant: 'body2' } }}
          />
          <Link component={RouterLink} to="/recover" variant="body2" underline="hover">
            {t('forgotPassword')}
          </Link>
        </Stack>
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={!form.formState.isValid || busy}
          startIcon={<LoginIcon />}
          data-testid="login-submit"
        >
          {busy ? t('submitting') : t('submit')}
        </Button>
      </Stack>
    </Box>
  );
}
