import SearchOffIcon from '@mui/icons-material/SearchOff';
import { Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { StatusCard } from '../../ui/page.tsx';

export function NotFoundPage() {
  const { t } = useTranslation('notFound');
  return (
    <StatusCard
      icon={<SearchOffIcon />}
      title={t('title')}
      text={t('text')}
      testId="not-found"
      actions={
        <Button component={RouterLink} to="/" variant="contained">
          {t('home')}
        </Button>
      }
    />
  );
}
