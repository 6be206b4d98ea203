import ConstructionOutlinedIcon from '@mui/icons-material/ConstructionOutlined';
import { Button, Card } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PageContainer, PageHeader, StatusPanel } from '../../ui/page.tsx';

export type PlaceholderArea = 'calendar' | 'photographerInvitation';

/** Stand-in for a screen that a later issue builds. */
export function ComingSoonPage({ area }: { area: PlaceholderArea }) {
  const { t } = useTranslation('comingSoon');
  const title = t(`areas.${area}`);
  return (
    <PageContainer>
      <PageHeader title={title} />
      <Card>
        <StatusPanel
          icon={<ConstructionOutlinedIcon />}
          title={t('title')}
          text={t('text', { area: title })}
          testId="coming-soon"
          actions={
            <Button component={RouterLink} to="/" variant="outlined">
              {t('back')}
            </Button>
          }
        />
      </Card>
    </PageContainer>
  );
}
