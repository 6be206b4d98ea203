// /login (spec §2 'Sign in', §4 'Login').
import { Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { LoginForm } from '../../ui/login-form.tsx';
import { AuthCard } from '../../ui/page.tsx';

export function LoginPage() {
  const { t } = useTranslation('login');
  return (
    <AuthCard
      title={t('title')}
      subtitle={t('subtitle')}
      testId="login-page"
      footer={
        <Typography variant="body2" color="text.secondary">
          {t('noAccount')}{' '}
          <Link component={RouterLink} to="/signup" underline="always" sx={{ fontWeight: 600 }}>
            {t('signUpLink')}
          </Link>
        </Typography>
      }
    >
      <LoginForm autoFocus />
    </AuthCard>
  );
}
