// The project's protocol one delivery a row (spec §2 'Project tabs: Protocol', §4 'Job state';
// issues 15/16), behind the protocol tab's "Every delivery" view (?view=deliveries). It asks every
// second while the page is visible.
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import ReplayOutlinedIcon from '@mui/icons-material/ReplayOutlined';
import {
  Box,
  Button,
  Card,
  Chip,
  LinearProgress,
  Stack,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useSnackbar } from 'notistack';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLiveJob, type Job, useJobPage, useRetryJob } from '../../api/jobs.ts';
import type { Project } from '../../api/projects.ts';
import { CardHeading } from '../../ui/card-heading.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import {
  formatCompactDateTime,
  formatDateTime,
  formatDuration,
  formatSize,
  formatSpeed,
} from '../../ui/format.ts';
import { LogPager } from '../../ui/log-pager.tsx';
import { StatusPanel } from '../../ui/page.tsx';
import { PictureDialog } from '../../ui/picture-dialog.tsx';
import { PictureThumb } from '../../ui/picture-thumb.tsx';
import { PlainError, usePlainError } from '../../ui/plain-error.tsx';
import { JobEventStamp } from './job-event-stamp.tsx';
import { describeJobState, type JobText, type JobTone, unstampedReason, uploadSpeed } from './job-state.ts';
import { JobTriesRow, TriesToggle } from './job-tries.tsx';

const pageSizes = [10, 25, 50, 100];

const toneColors: Record<JobTone, 'info' | 'primary' | 'error' | 'success' | 'default'> = {
  info: 'info',
  progress: 'primary',
  error: 'error',
  success: 'success',
  neutral: 'default',
};

/** A clock that ticks every second while `active`, for the 'starting in …' countdowns. */
function useNow(active: boolean) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function useJobText() {
  const { t } = useTranslation('jobs');
  const plain = usePlainError();
  return (text: JobText | null) => {
    if (!text) return null;
    if ('text' in text) return text.text;
    // A try's technical error reads as a plain sentence here; the Error column has the details.
    const values = text.values?.error
      ? { ...text.values, error: plain(String(text.values.error)) }
      : text.values;
    const value = t(text.key, values);
    return text.suffix ? `${value} ${text.suffix}` : value;
  };
}

function JobRow({
  job,
  now,
  language,
  onRetry,
  retrying,
  teamUuid,
  onOpenPicture,
}: {
  job: Job;
  now: number;
  language: string;
  onRetry: () => void;
  retrying: boolean;
  teamUuid: string;
  onOpenPicture: () => void;
}) {
  const { t } = useTranslation('jobs');
  const { t: tp } = useTranslation('pictures');
  const render = useJobText();
  const view = describeJobState(job, now, language);
  const speed = uploadSpeed(job);
  const unstamped = unstampedReason(job);
  const toServer = job.ftpservername !== null;
  const [open, setOpen] = useState(false);
  return (
    <>
      <TableRow hover data-testid="job-row" data-state={job.state}>
        <TableCell sx={{ minWidth: 190, maxWidth: 280 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            {job.uploadId !== undefined && (
              <PictureThumb
                teamUuid={teamUuid}
                uploadId={job.uploadId}
                size={40}
                label={tp('openPicture', { name: job.filename })}
                onOpen={onOpenPicture}
              />
            )}
            <Typography
              variant="body2"
              title={job.filename}
              sx={{ fontWeight: 500, overflowWrap: 'anywhere', minWidth: 0 }}
              data-testid="job-file"
            >
              {job.filename}
            </Typography>
          </Stack>
        </TableCell>
        <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
          {formatSize(job.filesize, language)}
        </TableCell>
        <TableCell sx={{ minWidth: 130, maxWidth: 180 }}>
          <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', minWidth: 0 }}>
            <Tooltip title={t(toServer ? 'destinationKinds.ftpserver' : 'destinationKinds.project')}>
              {toServer ? (
                <DnsOutlinedIcon fontSize="small" sx={{ color: 'text.secondary' }} />
              ) : (
                <AccountTreeOutlinedIcon fontSize="small" sx={{ color: 'text.secondary' }} />
              )}
            </Tooltip>
            <Typography
              variant="body2"
              title={job.ftpservername ?? job.destprojectname ?? undefined}
              // Between words (a name breaks inside a word only when one word is wider than the column).
              sx={{ overflowWrap: 'break-word', minWidth: 0 }}
            >
              {job.ftpservername ?? job.destprojectname ?? '–'}
            </Typography>
          </Stack>
        </TableCell>
        <TableCell sx={{ minWidth: 140, maxWidth: 220 }} data-testid="job-state">
          <Chip
            size="small"
            color={toneColors[view.tone]}
            variant={view.tone === 'success' || view.tone === 'neutral' ? 'outlined' : 'filled'}
            label={render(view.label)}
            sx={{ fontWeight: 600 }}
          />
          {/* The error in plain words with its technical text behind 'Details' (no column of its
              own: the table fits 1366 px in German). */}
          {job.errortext ? (
            <Box sx={{ mt: 0.5 }}>
              <PlainError
                text={job.errortext}
                sentence={job.state === 'failed' ? undefined : (render(view.detail) ?? undefined)}
                color={view.tone === 'error' ? 'error' : 'text.secondary'}
                testId="job-error"
              />
            </Box>
          ) : (
            view.detail && (
              <Typography
                variant="caption"
                color={view.tone === 'error' ? 'error' : 'text.secondary'}
                sx={{ display: 'block', mt: 0.5, overflowWrap: 'anywhere' }}
                data-testid="job-state-detail"
              >
                {render(view.detail)}
              </Typography>
            )
          )}
          <JobEventStamp job={job} />
          {unstamped && (
            <Typography
              variant="caption"
              color="warning.main"
              sx={{ display: 'block', mt: 0.5, overflowWrap: 'anywhere' }}
              data-testid="job-unstamped"
            >
              {t(job.state === 'held' ? 'heldReason' : 'unstamped', { reason: unstamped })}
            </Typography>
          )}
          {job.canRetry && (
            <Button
              size="small"
              startIcon={<ReplayOutlinedIcon />}
              onClick={onRetry}
              disabled={retrying}
              sx={{ mt: 0.5, ml: -0.75, px: 0.75, minHeight: 0, py: 0.25, whiteSpace: 'nowrap' }}
              data-testid="job-retry"
            >
              {t(job.state === 'held' ? 'release' : 'retry')}
            </Button>
          )}
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap', color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
          <Tooltip title={formatDateTime(job.scheduletime, language, true)}>
            <span>{formatCompactDateTime(job.scheduletime, now, language)}</span>
          </Tooltip>
          {/* Created: under the scheduled time, not a column of its own (the table fits 1366 px in German). */}
          <Tooltip title={formatDateTime(job.createtime, language, true)}>
            <Typography variant="caption" sx={{ display: 'block' }} data-testid="job-created">
              {t('createdAt', { time: formatCompactDateTime(job.createtime, now, language) })}
            </Typography>
          </Tooltip>
        </TableCell>
        <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="job-tries-count">
          <TriesToggle job={job} open={open} onToggle={() => setOpen(!open)} language={language} />
        </TableCell>
        <TableCell align="right" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
          {formatDuration(job.uploadduration, language) ?? '–'}
          {speed !== null && (
            <Typography
              variant="caption"
              color="text.secondary"
              sx={{ display: 'block' }}
              data-testid="job-speed"
            >
              {formatSpeed(job.filesize, job.uploadduration, language)}
            </Typography>
          )}
        </TableCell>
      </TableRow>
      {open && <JobTriesRow job={job} columns={7} language={language} />}
    </>
  );
}

/** The protocol one delivery a row (issue 15/16), behind the "Every delivery" view. */
export function DeliveriesView({
  project,
  teamUuid,
  viewToggle,
}: {
  project: Project;
  teamUuid: string;
  viewToggle: ReactNode;
}) {
  const { t, i18n } = useTranslation('jobs');
  const language = i18n.resolvedLanguage ?? 'en';
  const { enqueueSnackbar } = useSnackbar();
  const [pageSize, setPageSize] = useState(25);
  const [pageIndex, setPageIndex] = useState(0);
  const page = useJobPage(teamUuid, project.id, pageSize, pageIndex);
  const retry = useRetryJob(teamUuid, project.id);
  const jobs = page.data?.jobs ?? [];
  const count = page.data?.count ?? 0;
  const live = jobs.some(isLiveJob);
  const now = useNow(jobs.some((job) => job.state === 'scheduled'));
  const [picture, setPicture] = useState<Job | null>(null);

  // A page past the end (e.g. after jobs expired) falls back to the last one.
  useEffect(() => {
    if (page.data && pageIndex > 0 && pageIndex * pageSize >= count)
      setPageIndex(Math.max(0, Math.ceil(count / pageSize) - 1));
  }, [page.data, pageIndex, pageSize, count]);

  const columns = ['file', 'size', 'destination', 'state', 'scheduled', 'tries', 'durationSpeed'] as const;
  const rightAligned = new Set(['size', 'tries', 'durationSpeed']);

  return (
    <Card data-testid="protocol-tab">
      <CardHeading
        icon={<HistoryOutlinedIcon color="primary" />}
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <>
            {viewToggle}
            {page.data && (
              <Chip size="small" variant="outlined" label={t('count', { count })} data-testid="job-count" />
            )}
            {live && (
              <Tooltip title={t('liveHint')}>
                <Chip
                  size="small"
                  color="success"
                  label={t('live')}
                  data-testid="jobs-live"
                  sx={{
                    fontWeight: 700,
                    '&::before': {
                      content: '""',
                      width: 8,
                      height: 8,
                      borderRadius: '50%',
                      bgcolor: 'common.white',
                      ml: 1,
                      animation: 'photorelay-pulse 1.4s ease-in-out infinite',
                    },
                    '@keyframes photorelay-pulse': { '0%, 100%': { opacity: 1 }, '50%': { opacity: 0.3 } },
                  }}
                />
              </Tooltip>
            )}
          </>
        }
      />
      <Box sx={{ height: 2 }}>
        {page.isFetching && page.isPlaceholderData && <LinearProgress sx={{ height: 2 }} />}
      </Box>
      <DataTable
        loading={page.isPending}
        loadingLines={3}
        rows={jobs}
        rowKey={(job) => job.id}
        // A page past the end shows no rows only until the effect above moves back.
        empty={
          count === 0 ? (
            <StatusPanel
              icon={<HistoryOutlinedIcon />}
              title={t('emptyTitle')}
              text={t('emptyText')}
              testId="jobs-empty"
            />
          ) : null
        }
        size="small"
        testId="jobs-table"
        ariaLabel={t('title')}
        columns={columns.map((column) => ({
          label: t(`columns.${column}`),
          align: rightAligned.has(column) ? 'right' : undefined,
          noWrap: column !== 'durationSpeed',
        }))}
        renderRow={(job) => (
          <JobRow
            job={job}
            now={now}
            language={language}
            retrying={retry.isPending && retry.variables === job.id}
            teamUuid={teamUuid}
            onOpenPicture={() => setPicture(job)}
            onRetry={() =>
              retry.mutate(job.id, {
                onSuccess: () => enqueueSnackbar(t('retried'), { variant: 'success' }),
              })
            }
          />
        )}
      />
      {!page.isPending && count > 0 && (
        <LogPager
          count={count}
          pageIndex={pageIndex}
          pageSize={pageSize}
          pageSizes={pageSizes}
          onPageIndex={setPageIndex}
          onPageSize={setPageSize}
          language={language}
          rowsPerPageLabel={t('rowsPerPage')}
          displayedRows={(numbers) => t('displayedRows', numbers)}
        />
      )}
      <PictureDialog
        teamUuid={teamUuid}
        uploadId={picture?.uploadId ?? null}
        filename={picture?.filename ?? ''}
        onClose={() => setPicture(null)}
      />
    </Card>
  );
}
