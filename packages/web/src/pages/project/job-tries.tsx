// A delivery job's tries (issue 15): when each started, how long it took, what it sent and why
// it failed; shown under the job's row in the protocol tab when its tries count is clicked.
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Box, Button, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Job } from '../../api/jobs.ts';
import { formatDateTime, formatDuration, formatNumber, formatSize } from '../../ui/format.ts';

/** The tries a job shows: its recorded tries, or for jobs from before they were kept its counter. */
export const triesCount = (job: Job) => (job.tries?.length ? job.tries.length : job.trynumber);

/** The tries column: the count, a button that opens the job's tries below its row. */
export function TriesToggle({
  job,
  open,
  onToggle,
  language,
}: {
  job: Job;
  open: boolean;
  onToggle: () => void;
  language: string;
}) {
  const { t } = useTranslation('jobs');
  const count = formatNumber(triesCount(job), language);
  if (!job.tries?.length) return <>{count}</>;
  return (
    <Button
      size="small"
      onClick={onToggle}
      endIcon={open ? <ExpandLessIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
      aria-expanded={open}
      // The name starts with the count shown (WCAG 2.5.3): "3 – Show every try".
      aria-label={`${count} – ${t(open ? 'triesDetail.hide' : 'triesDetail.show')}`}
      title={t(open ? 'triesDetail.hide' : 'triesDetail.show')}
      sx={{
        minWidth: 0,
        px: 0.5,
        mr: -0.5,
        fontVariantNumeric: 'tabular-nums',
        '& .MuiButton-endIcon': { ml: 0.25, mr: 0 },
      }}
      data-testid="job-tries-toggle"
    >
      {count}
    </Button>
  );
}

/** The row under a job with its tries, oldest first. */
export function JobTriesRow({ job, columns, language }: { job: Job; columns: number; language: string }) {
  const { t } = useTranslation('jobs');
  const tries = job.tries ?? [];
  return (
    <TableRow data-testid="job-tries">
      <TableCell colSpan={columns} sx={{ bgcolor: 'action.hover', py: 1.5 }}>
        <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
          {t('triesDetail.title')}
        </Typography>
        {tries.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('triesDetail.none')}
          </Typography>
        ) : (
          <Box sx={{ maxWidth: 900 }}>
            <Table size="small" aria-label={t('triesDetail.title')}>
              <TableHead>
                <TableRow>
                  <TableCell align="right">{t('triesDetail.number')}</TableCell>
                  <TableCell>{t('triesDetail.started')}</TableCell>
                  <TableCell align="right">{t('triesDetail.duration')}</TableCell>
                  <TableCell align="right">{t('triesDetail.bytes')}</TableCell>
                  <TableCell>{t('triesDetail.result')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {tries.map((item, index) => (
                  <TableRow key={item.startedAt + String(index)} data-testid="job-try">
                    <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                      {formatNumber(index + 1, language)}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                      {formatDateTime(item.startedAt, language, true)}
                    </TableCell>
                    <TableCell
                      align="right"
                      sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                    >
                      {formatDuration(item.durationMs, language) ?? '–'}
                    </TableCell>
                    <TableCell
                      align="right"
                      sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                    >
                      {item.bytes === null ? '–' : formatSize(item.bytes, language)}
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>
                      {item.error === null ? (
                        <Typography variant="body2" color="success.main">
                          {t('triesDetail.ok')}
                        </Typography>
                      ) : (
                        <Typography variant="body2" color="error">
                          {item.error}
                        </Typography>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </TableCell>
    </TableRow>
  );
}
