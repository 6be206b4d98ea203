// Issue 16: failing deliveries are visible before all tries are spent. The dashboard's summary
// rows and the project overview show jobs that wait for a retry beside the failed ones, with
// the newest error; the project overview lists its failing destinations in a card of their own.
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import { Alert, Box, Chip, Stack, Tooltip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { type JobSummaryRow, useJobSummary } from '../api/jobs.ts';
import { PlainError, usePlainError } from './plain-error.tsx';

/** "3 retrying" with the newest error in its tooltip; nothing while no job waits for a retry. */
export function RetryingChip({ row }: { row: JobSummaryRow }) {
  const { t } = useTranslation('dashboard');
  const plain = usePlainError();
  const count = row.retryingjobcount ?? 0;
  if (count === 0) return null;
  return (
    <Tooltip title={row.lasterror ? t('summary.lastError', { error: plain(row.lasterror) }) : ''}>
      <Chip
        size="small"
        color="warning"
        label={t('summary.retrying', { count })}
        sx={{ mr: 0.5 }}
        data-testid="summary-retrying"
      />
    </Tooltip>
  );
}

/** The newest error of a failing destination as a plain sentence, the technical text behind "Details". */
export function LastError({ row }: { row: JobSummaryRow }) {
  if (!row.failing || !row.lasterror) return null;
  return (
    <Box sx={{ maxWidth: 420 }}>
      <PlainError text={row.lasterror} testId="summary-last-error" />
    </Box>
  );
}

/** The project overview's notice: which destinations fail now and why. */
export function FailingDestinations({ teamUuid, projectId }: { teamUuid: string; projectId: number }) {
  const { t } = useTranslation('dashboard');
  const summary = useJobSummary(teamUuid);
  const rows = (summary.data ?? []).filter(
    (row) => row.projectid === projectId && (row.failing || (row.retryingjobcount ?? 0) > 0),
  );
  if (rows.length === 0) return null;
  return (
    <Alert
      severity="warning"
      icon={<ReportProblemOutlinedIcon />}
      data-testid="failing-destinations"
      sx={{ '& .MuiAlert-message': { minWidth: 0, flex: 1 } }}
    >
      <Typography variant="subtitle2">{t('health.title')}</Typography>
      <Stack spacing={1} sx={{ mt: 1 }}>
        {rows.map((row) => (
          <Box key={`${row.destination}-${row.ftpserver}`} data-testid="failing-destination">
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              {row.destination === 'project' ? (
                <AccountTreeOutlinedIcon fontSize="small" />
              ) : (
                <DnsOutlinedIcon fontSize="small" />
              )}
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {row.ftpserver}
              </Typography>
              <RetryingChip row={row} />
              {row.failedjobcount > 0 && (
                <Chip
                  size="small"
                  color="error"
                  variant="outlined"
                  label={t('summary.failed', { count: row.failedjobcount })}
                />
              )}
            </Stack>
            <LastError row={{ ...row, failing: true }} />
          </Box>
        ))}
      </Stack>
    </Alert>
  );
}
