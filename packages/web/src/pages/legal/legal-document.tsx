// Renders one German legal text from the `legal` i18n namespace with the operator's data.
import GavelOutlinedIcon from '@mui/icons-material/GavelOutlined';
import { Alert, Box, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { usePublicSettings } from '../../api/settings.ts';
import { PageContainer, PageHeader } from '../../ui/page.tsx';

type Section = { heading: string; body: string };
export type LegalDocumentKey = 'imprint' | 'privacy' | 'terms';

/** Paragraphs are separated by blank lines; lines starting with '- ' form a bullet list. */
function Body({ text }: { text: string }) {
  const blocks = text.split(/\n{2,}/);
  return (
    <>
      {blocks.map((block, index) => {
        const lines = block.split('\n');
        const key = `${index}-${block.slice(0, 12)}`;
        if (lines.every((line) => line.startsWith('- '))) {
          return (
            <Box component="ul" key={key} sx={{ pl: 3, my: 1.5, '& li': { mb: 0.75 } }}>
              {lines.map((line) => (
                <Typography component="li" key={line} sx={{ lineHeight: 1.7 }}>
                  {line.slice(2)}
                </Typography>
              ))}
            </Box>
          );
        }
        return (
          <Typography key={key} sx={{ lineHeight: 1.75, my: 1.5, whiteSpace: 'pre-line' }}>
            {block}
          </Typography>
        );
      })}
    </>
  );
}

export function LegalDocument({ document }: { document: LegalDocumentKey }) {
  const { t, i18n } = useTranslation('legal');
  const settings = usePublicSettings();
  const operator = {
    operatorName: settings.data?.operatorName || t('operatorFallback.name'),
    operatorAddress: settings.data?.operatorAddress || t('operatorFallback.address'),
    operatorEmail: settings.data?.operatorEmail || t('operatorFallback.email'),
  };
  const sections = t(`${document}.sections`, { returnObjects: true, ...operator }) as unknown as Record<
    string,
    Section
  >;

  return (
    <PageContainer maxWidth="md">
      <PageHeader
        title={t(`${document}.title`)}
        subtitle={t(`${document}.intro`)}
        icon={<GavelOutlinedIcon />}
      />
      {i18n.resolvedLanguage !== 'de' && (
        <Alert severity="info" sx={{ mb: 3 }}>
          {t('germanOnly')}
        </Alert>
      )}
      <Card>
        <CardContent sx={{ p: { xs: 2.5, sm: 4 } }} lang="de" data-testid={`legal-${document}`}>
          {settings.isPending ? (
            <Stack spacing={1.5}>
              <Skeleton width="40%" height={32} />
              <Skeleton />
              <Skeleton />
              <Skeleton width="70%" />
            </Stack>
          ) : (
            Object.entries(sections).map(([id, section], index) => (
              <Fragment key={id}>
                <Typography variant="h6" component="h2" sx={{ mt: index === 0 ? 0 : 3.5, mb: 0.5 }}>
                  {section.heading}
                </Typography>
                <Body text={section.body} />
              </Fragment>
            ))
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mt: 4 }}>
            {t('lastUpdated')}
          </Typography>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
