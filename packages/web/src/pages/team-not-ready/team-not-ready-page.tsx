// /teamnotready (spec §2, §4 'Team readiness'): waits until the current team is set up.
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import { LinearProgress, Typography } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUserInfo } from '../../api/account.ts';
import { StatusCard } from '../../ui/page.tsx';
import { useSession } from '../../ui/session.ts';

/** How often the page asks whether the team is ready. */
const pollMs = 3000;

export function TeamNotReadyPage() {
  const { t } = useTranslation('teamNotReady');
  const navigate = useNavigate();
  const session = useSession();
  useUserInfo({ refetchInterval: pollMs });

  const team = session.status === 'loggedIn' ? session.currentTeam : undefined;
  useEffect(() => {
    if (team === null) navigate('/noteam', { replace: true });
    else if (team?.ready) navigate('/', { replace: true });
  }, [team, navigate]);

  return (
    <StatusCard
      documentTitle={t('documentTitle')}
      icon={<HourglassTopIcon />}
      tone="warning"
      title={t('message')}
      testId="teamnotready-page"
    >
      <LinearProgress sx={{ width: 280, maxWidth: '100%', borderRadius: 1 }} aria-label={t('waiting')} />
      <Typography variant="body2" color="text.secondary">
        {t('autoRefresh')}
      </Typography>
    </StatusCard>
  );
}
