// /noteam (spec §2): a logged-in user without any team.
import GroupOffOutlinedIcon from '@mui/icons-material/GroupOffOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Button } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLogout, useUserInfo } from '../../api/account.ts';
import { StatusCard } from '../../ui/page.tsx';
import { useSession } from '../../ui/session.ts';

export function NoTeamPage() {
  const { t } = useTranslation('noTeam');
  const navigate = useNavigate();
  const session = useSession();
  const info = useUserInfo();
  const logout = useLogout();

  const hasTeam = session.status === 'loggedIn' && session.currentTeam !== null;
  useEffect(() => {
    if (hasTeam) navigate('/', { replace: true });
  }, [hasTeam, navigate]);

  return (
    <StatusCard
      documentTitle={t('documentTitle')}
      icon={<GroupOffOutlinedIcon />}
      tone="warning"
      title={t('message')}
      text={t('hint')}
      testId="noteam-page"
      actions={
        <>
          <Button
            variant="contained"
            startIcon={<RefreshIcon />}
            disabled={info.isFetching}
            onClick={() => void info.refetch()}
          >
            {t('checkAgain')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<LogoutIcon />}
            disabled={logout.isPending}
            onClick={() => logout.mutate(undefined, { onSuccess: () => navigate('/') })}
          >
            {t('logout')}
          </Button>
        </>
      }
    />
  );
}
