// The sign-in form, shown on /login and on the landing page (spec §4 'Login', §8).
import LoginIcon from '@mui/icons-material/Login';
import { Alert, Box, Button, Checkbox, FormControlLabel, Link, Stack, TextField } from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useLogin, useResendVerification } from '../api/account.ts';
import { ApiError } from '../api/client.ts';
import { useCompleteLogin } from './session.ts';

type LoginProblem = 'invalidLogin' | 'emailNotVerified' | 'tooManyRequests';

// Network failures stay global ('FAILED'); every answer with an error field is shown here.
const loginErrorMeta = { handlesError: (error: Error) => error instanceof ApiError };

export function LoginForm({ autoFocus = false }: { autoFocus?: boolean }) {
  const { t, i18n } = useTranslation('login');
  const navigate = useNavigate();
  const login = useLogin(loginErrorMeta);
  const completeLogin = useCompleteLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(true);
  const [problem, setProblem] = useState<LoginProblem | null>(null);
  const [finishing, setFinishing] = useState(false);
  const resend = useResendVerification();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return;
    setProblem(null);
    login.mutate(
      { email: email.trim(), password, rememberme: rememberMe },
      {
        onSuccess: async () => {
          setFinishing(true);
          try {
            await completeLogin();
            navigate('/');
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
  };

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
                    resend.mutate({ email: email.trim(), language: i18n.language === 'de' ? 'de' : 'en' })
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
          name="email"
          autoComplete="username"
          autoFocus={autoFocus}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          slotProps={{ htmlInput: { maxLength: limits.emailField, 'data-testid': 'login-email' } }}
        />
        <TextField
          label={t('password')}
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          slotProps={{ htmlInput: { maxLength: limits.passwordMax, 'data-testid': 'login-password' } }}
        />
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={rememberMe}
                onChange={(event) => setRememberMe(event.target.checked)}
                size="small"
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
          disabled={!password || busy}
          startIcon={<LoginIcon />}
          data-testid="login-submit"
        >
          {busy ? t('submitting') : t('submit')}
        </Button>
      </Stack>
    </Box>
  );
}
