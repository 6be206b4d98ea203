// Issue 30 item 6: with the server's data disk full every camera's upload is refused, and the
// dashboard said nothing. Every member who opens it now reads why, and what frees it.
import { Alert, AlertTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useHealth } from '../../api/settings.ts';

export function DiskFullBanner() {
  const { t } = useTranslation('dashboard');
  const health = useHealth();
  if (health.data?.disk !== 'full') return null;
  return (
    <Alert severity="error" sx={{ mb: 3 }} data-testid="disk-full-banner">
      <AlertTitle>{t('diskFull.title')}</AlertTitle>
      {t('diskFull.text')}
    </Alert>
  );
}
