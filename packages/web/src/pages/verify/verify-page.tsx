// /verify?token=..&selector=.. (spec §2 'Verify page', §5, §8 'Verify'): verifies the e-mail
// address, then goes to the sign-in page after 9 seconds.
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import VerifiedOutlinedIcon from '@mui/icons-material/VerifiedOutlined';
import { Box, Button, CircularProgress, LinearProgress } from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { postVerify } from '../../api/account.ts';
import { ApiError, NetworkError } from '../../api/client.ts';
import { StatusCard } from '../../ui/page.tsx';

type VerifyState = 'invalidParameters' | 'processing' | 'success' | 'notOk' | 'failed';

// A verification link works once; this keeps a remount (StrictMode, back button) from sending
// the same token a second time.
const attempts = new Map<string, Promise<VerifyState>>();

function verifyOnce(token: string, selector: string): Promise<VerifyState> {
  const key = `${selector}:${token}`;
  let attempt = attempts.get(key);
  if (!attempt) {
    attempt = postVerify({ token, selector }).then(
      (answer) => (answer.result === 'OK' ? 'success' : 'notOk'),
      // Spec §8: an error (field) -> 'Something went wrong - please try again'; anything else
      // that is not 'OK' -> 'Something went WRONG!'.
      (error: unknown) =>
        (error instanceof ApiError && error.code !== 'InvalidResponse') || error instanceof NetworkError
          ? 'failed'
          : 'notOk',
    );
    attempts.set(key, attempt);
  }
  return attempt;
}

export function VerifyPage() {
  const { t } = useTranslation('verify');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const selector = params.get('selector') ?? '';
  const [state, setState] = useState<VerifyState>(token && selector ? 'processing' : 'invalidParameters');

  useEffect(() => {
    if (!token || !selector) {
      setState('invalidParameters');
      return;
    }
    let active = true;
    setState('processing');
    void verifyOnce(token, selector).then((result) => {
      if (active) setState(result);
    });
    return () => {
      active = false;
    };
  }, [token, selector]);

  useEffect(() => {
    if (state !== 'success') return;
    const timer = setTimeout(() => navigate('/login'), limits.verifyRedirectMs);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  const toLogin = (
    <Button component={RouterLink} to="/login" variant="contained">
      {t('toLogin')}
    </Button>
  );

  const common = { documentTitle: t('title') };
  return (
    <Box sx={{ flex: 1, display: 'flex' }} data-testid="verify-page" data-state={state}>
      {state === 'processing' && (
        <StatusCard
          {...common}
          icon={<HourglassTopIcon />}
          title={t('processing')}
          testId="verify-processing"
        >
          <CircularProgress size={28} />
        </StatusCard>
      )}
      {state === 'success' && (
        <StatusCard
          {...common}
          icon={<VerifiedOutlinedIcon />}
          tone="success"
          title={t('success.title')}
          text={t('success.text', { seconds: limits.verifyRedirectMs / 1000 })}
          testId="verify-success"
          actions={toLogin}
        >
          <LinearProgress sx={{ width: 240, borderRadius: 1 }} aria-label={t('success.redirecting')} />
        </StatusCard>
      )}
      {state === 'invalidParameters' && (
        <StatusCard
          {...common}
          icon={<LinkOffIcon />}
          tone="warning"
          title={t('invalidParameters')}
          text={t('invalidParametersHint')}
          testId="verify-invalid"
        />
      )}
      {state === 'notOk' && (
        <StatusCard
          {...common}
          icon={<ErrorOutlineIcon />}
          tone="error"
          title={t('notOk')}
          testId="verify-notok"
          actions={toLogin}
        />
      )}
      {state === 'failed' && (
        <StatusCard
          {...common}
          icon={<ErrorOutlineIcon />}
          tone="error"
          title={t('failed')}
          text={t('failedHint')}
          testId="verify-failed"
          actions={toLogin}
        />
      )}
    </Box>
  );
}
