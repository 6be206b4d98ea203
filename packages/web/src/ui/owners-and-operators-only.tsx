// Pages for the team's Owners and Operators only (spec §2 'User management page', 'Config files
// page'): the server refuses everyone else anyway; this shows them why instead of failing calls.
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Card } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageSpinner, StatusPanel } from './page.tsx';
import { useSession } from './session.ts';

/** A spinner until the caller's groups are known, then `children` or a no-access panel. */
export function OwnersAndOperatorsOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const session = useSession();
  const groupsKnown = session.status === 'loggedIn' && session.groups !== undefined;
  const allowed = session.status === 'loggedIn' && (session.isOwner || session.isOperator);
  if (!groupsKnown) return <PageSpinner />;
  if (allowed) return children;
  return (
    <Card>
      <StatusPanel
        icon={<LockOutlinedIcon />}
        tone="warning"
        title={t('noAccess.title')}
        text={t('noAccess.text')}
        testId="no-access"
      />
    </Card>
  );
}
