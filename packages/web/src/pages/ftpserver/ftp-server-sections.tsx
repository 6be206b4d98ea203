// Pieces of the FTP server form: a titled section and the Test command's result.
import CheckCircleOutlinedIcon from '@mui/icons-material/CheckCircleOutlined';
import { Alert, AlertTitle, Box, CircularProgress, Grid, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export const mono = { fontFamily: '"JetBrains Mono", "SFMono-Regular", Consolas, monospace' };

export function Section({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <Grid container spacing={{ xs: 1.5, md: 3 }} sx={{ py: 2.5 }}>
      <Grid size={{ xs: 12, md: 4 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {text}
        </Typography>
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>{children}</Grid>
    </Grid>
  );
}

export type TestResult = { ok: true } | { ok: false; text: string };

/** 'Test' running, 'Success!!!', or the server's text in a warning (spec §8). */
export function TestResultPanel({
  busy,
  host,
  result,
  onClose,
}: {
  busy: boolean;
  host: string;
  result: TestResult | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('ftpServers');
  if (!busy && !result) return null;
  return (
    <Box sx={{ pb: 2 }} data-testid="ftpserver-test-result">
      {busy ? (
        <Alert severity="info" icon={<CircularProgress size={20} />} data-testid="ftpserver-test-busy">
          {t('testing', { host })}
        </Alert>
      ) : result?.ok ? (
        <Alert severity="success" icon={<CheckCircleOutlinedIcon />} onClose={onClose}>
          {t('testSuccess')}
        </Alert>
      ) : result ? (
        <Alert severity="warning" onClose={onClose} data-testid="ftpserver-test-warning">
          <AlertTitle>{t('testFailed')}</AlertTitle>
          <Box component="span" sx={{ ...mono, fontSize: '0.85rem', overflowWrap: 'anywhere' }}>
            {result.text}
          </Box>
        </Alert>
      ) : null}
    </Box>
  );
}
