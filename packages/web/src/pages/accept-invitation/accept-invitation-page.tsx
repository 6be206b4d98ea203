// /acceptInvitation?token=.. : the link mailed to an existing account invited to a team. The
// account joins only here, by its owner's click (issue 10 item 13), logged in or not.
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { Box, Button, CircularProgress } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { accountKeys, postAcceptInvitation } from '../../api/account.ts';
import { StatusCard } from '../../ui/page.tsx';
import { useSession } from '../../ui/session.ts';

type AcceptState = 'invalidParameters' | 'processing' | 'success' | 'failed';

// A link works once: a remount (StrictMode, back button) must not send it a second time.
const attempts = new Map<string, Promise<AcceptState>>();

function acceptOnce(token: string): Promise<AcceptState> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = postAcceptInvitation({ token }).then(
      (answer) => (answer.result === 'OK' ? 'success' : 'failed'),
      () => 'failed',
    );
    attempts.set(token, attempt);
  }
  return attempt;
}

export function AcceptInvitationPage() {
  const { t } = useTranslation('acceptInvitation');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const session = useSession();
  const queryClient = useQueryClient();
  const [state, setState] = useState<AcceptState>(token ? 'processing' : 'invalidParameters');

  useEffect(() => {
    if (!token) {
      setState('invalidParameters');
      return;
    }
    let active = true;
    void acceptOnce(token).then((result) => {
      if (!active) return;
      setState(result);
      // A logged-in user's team list now has the new team.
      if (result === 'success') void queryClient.invalidateQueries({ queryKey: accountKeys.userInfo() });
    });
    return () => {
      active = false;
    };
  }, [token, queryClient]);

  const next =
    session.status === 'loggedIn' ? (
      <Button component={RouterLink} to="/" variant="contained">
        {t('toApp')}
      </Button>
    ) : (
      <Button component={RouterLink} to="/login" variant="contained">
        {t('toLogin')}
      </Button>
    );
  const common = { documentTitle: t('title') };
  return (
    <Box sx={{ flex: 1, display: 'flex' }} data-testid="accept-invitation-page" data-state={state}>
      {state === 'processing' && (
        <StatusCard {...common} icon={<HourglassTopIcon />} title={t('processing')}>
          <CircularProgress size={28} />
        </StatusCard>
      )}
      {state === 'success' && (
        <StatusCard
          {...common}
          icon={<GroupAddOutlinedIcon />}
          tone="success"
          title={t('success.title')}
          text={t('success.text')}
          testId="accept-invitation-success"
          actions={next}
        />
      )}
      {state === 'invalidParameters' && (
        <StatusCard
          {...common}
          icon={<LinkOffIcon />}
          tone="warning"
          title={t('invalidParameters')}
          text={t('invalidParametersHint')}
          testId="accept-invitation-invalid"
        />
      )}
      {state === 'failed' && (
        <StatusCard
          {...common}
          icon={<ErrorOutlineIcon />}
          tone="error"
          title={t('failed')}
          text={t('failedHint')}
          testId="accept-invitation-failed"
          actions={next}
        />
      )}
    </Box>
  );
}
