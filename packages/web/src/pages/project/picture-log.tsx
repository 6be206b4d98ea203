// Issue 28: the protocol one picture a row. Filters (state, destination, dates, file name) go
// to the server, which pages; failing destinations are named once above the list; "Retry all
// failed" for the project, a destination or the selected pictures; "Send again" per picture.
import ClearIcon from '@mui/icons-material/Clear';
import HistoryOutlinedIcon from '@mui/icons-material/HistoryOutlined';
import ReplayOutlinedIcon from '@mui/icons-material/ReplayOutlined';
import SearchIcon from '@mui/icons-material/Search';
import {
  Box,
  Button,
  InputAdornment,
  LinearProgress,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useSnackbar } from 'notistack';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type PictureFilter,
  type PictureRow,
  pictureStateFilters,
  usePictures,
  useRetryFailed,
  useSendAgain,
} from '../../api/picture-log.ts';
import type { Project } from '../../api/projects.ts';
import { DestinationProblems } from '../../ui/destination-problems.tsx';
import { formatNumber } from '../../ui/format.ts';
import { LogPager } from '../../ui/log-pager.tsx';
import { StatusPanel } from '../../ui/page.tsx';
import { PictureDialog } from '../../ui/picture-dialog.tsx';
import { PictureLogRow } from '../../ui/picture-log-row.tsx';
import { SendAgainDialog } from '../../ui/send-again-dialog.tsx';

const pageSizes = [25, 50, 100];

/** A local date (yyyy-mm-dd) as the start of that day, or of the next one, in ISO form. */
const dayStart = (day: string, next = false) => {
  const date = new Date(`${day}T00:00:00`);
  if (next) date.setDate(date.getDate() + 1);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
};

export function PictureLog({
  project,
  teamUuid,
  viewToggle,
}: {
  project: Project;
  teamUuid: string;
  /** Pictures / every delivery: in the tool row, where it does not squeeze the title on a phone. */
  viewToggle: ReactNode;
}) {
  const { t, i18n } = useTranslation('jobLog');
  const language = i18n.resolvedLanguage ?? 'en';
  const { enqueueSnackbar } = useSnackbar();
  const [state, setState] = useState<PictureFilter['state'] | ''>('');
  const [destination, setDestination] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [pageSize, setPageSize] = useState(25);
  const [pageIndex, setPageIndex] = useState(0);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [picture, setPicture] = useState<PictureRow | null>(null);
  const [sendAgain, setSendAgain] = useState<PictureRow | null>(null);

  // The search goes to the server a moment after typing stops.
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);

  const filter = useMemo<PictureFilter>(
    () => ({
      projectid: project.id,
      ...(state ? { state } : {}),
      ...(destination ? { destination } : {}),
      ...(from && dayStart(from) ? { from: dayStart(from) } : {}),
      ...(to && dayStart(to, true) ? { to: dayStart(to, true) } : {}),
      ...(search ? { search } : {}),
    }),
    [project.id, state, destination, from, to, search],
  );
  // A new filter starts at its first page with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the filter changes
  useEffect(() => {
    setPageIndex(0);
    setSelected(new Set());
  }, [filter]);

  const page = usePictures(teamUuid, filter, pageSize, pageIndex);
  const retry = useRetryFailed(teamUuid);
  const send = useSendAgain(teamUuid);
  const pictures = page.data?.pictures ?? [];
  const count = page.data?.count ?? 0;
  // Past the server's count cap (1,000) the pager offers the next page while this one is full.
  const pagerCount = page.data?.countCapped
    ? Math.max(count + 1, pageIndex * pageSize + pictures.length + (pictures.length === pageSize ? 1 : 0))
    : count;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const canWrite = project.canWrite;
  const filtered = Object.keys(filter).length > 1;

  const retryScope = (scope: { destination?: string; jobIds?: number[] }) =>
    retry.mutate(
      { projectid: project.id, ...scope },
      {
        onSuccess: (retried) =>
          enqueueSnackbar(t('retried', { count: retried }), { variant: retried > 0 ? 'success' : 'info' }),
      },
    );
  const selectedJobs = pictures
    .filter((p) => selected.has(p.uploadId))
    .flatMap((p) => p.deliveries.filter((d) => d.canRetry && d.state !== 'succeeded').map((d) => d.jobId));

  return (
    <Box data-testid="picture-log">
      <DestinationProblems
        problems={page.data?.problems ?? []}
        retrying={retry.isPending}
        onRetry={canWrite ? (problem) => retryScope({ destination: problem.name }) : undefined}
      />
      <Stack
        direction="row"
        sx={{ flexWrap: 'wrap', gap: 1.5, px: { xs: 1, sm: 2 }, pb: 1.5, alignItems: 'center' }}
      >
        <TextField
          size="small"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          label={t('filters.search')}
          slotProps={{
            htmlInput: { maxLength: 200, 'data-testid': 'picture-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
          sx={{ flex: '1 1 220px', minWidth: 0 }}
        />
        <TextField
          select
          size="small"
          label={t('filters.state')}
          value={state}
          onChange={(event) => setState(event.target.value as PictureFilter['state'] | '')}
          sx={{ flex: '1 1 170px', minWidth: 0 }}
          slotProps={{
            inputLabel: { shrink: true },
            select: {
              displayEmpty: true,
              SelectDisplayProps: { 'data-testid': 'picture-state-filter' } as object,
            },
          }}
        >
          <MenuItem value="">{t('filters.anyState')}</MenuItem>
          {pictureStateFilters.map((s) => (
            <MenuItem key={s} value={s} data-testid={`picture-state-${s}`}>
              {t(`states.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('filters.destination')}
          value={destination}
          onChange={(event) => setDestination(event.target.value)}
          sx={{ flex: '1 1 170px', minWidth: 0 }}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        >
          <MenuItem value="">{t('filters.anyDestination')}</MenuItem>
          {(page.data?.destinations ?? []).map((d) => (
            <MenuItem key={`${d.kind}-${d.name}`} value={d.name}>
              {d.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="date"
          label={t('filters.from')}
          value={from}
          onChange={(event) => setFrom(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: '1 1 140px', minWidth: 0 }}
        />
        <TextField
          size="small"
          type="date"
          label={t('filters.to')}
          value={to}
          onChange={(event) => setTo(event.target.value)}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: '1 1 140px', minWidth: 0 }}
        />
        {filtered && (
          <Button
            size="small"
            startIcon={<ClearIcon />}
            onClick={() => {
              setState('');
              setDestination('');
              setFrom('');
              setTo('');
              setTyped('');
            }}
          >
            {t('filters.clear')}
          </Button>
        )}
      </Stack>
      <Stack
        direction="row"
        sx={{ flexWrap: 'wrap', gap: 1, px: { xs: 1, sm: 2 }, pb: 1, alignItems: 'center' }}
      >
        {viewToggle}
        {canWrite && (
          <Button
            size="small"
            variant="outlined"
            startIcon={<ReplayOutlinedIcon />}
            onClick={() => retryScope({})}
            disabled={retry.isPending}
            data-testid="retry-all-failed"
          >
            {t('retryAll')}
          </Button>
        )}
        {canWrite && selectedJobs.length > 0 && (
          <Button
            size="small"
            variant="contained"
            startIcon={<ReplayOutlinedIcon />}
            onClick={() => retryScope({ jobIds: selectedJobs })}
            disabled={retry.isPending}
            data-testid="retry-selected"
          >
            {t('retrySelected', { count: selectedJobs.length })}
          </Button>
        )}
      </Stack>
      <Box sx={{ height: 2 }}>
        {page.isFetching && page.isPlaceholderData && <LinearProgress sx={{ height: 2 }} />}
      </Box>
      {page.isPending ? (
        <Box sx={{ p: 2 }}>
          <LinearProgress />
        </Box>
      ) : pictures.length === 0 ? (
        filtered ? (
          <Typography sx={{ p: 3 }} color="text.secondary" data-testid="pictures-none-match">
            {t('emptyFiltered')}
          </Typography>
        ) : (
          <StatusPanel
            icon={<HistoryOutlinedIcon />}
            title={t('emptyTitle')}
            text={t('emptyText')}
            testId="pictures-empty"
          />
        )
      ) : (
        <Box
          component="ul"
          sx={{ m: 0, p: 0, borderTop: 1, borderColor: 'divider' }}
          data-testid="picture-list"
        >
          {pictures.map((p) => (
            <PictureLogRow
              key={p.uploadId}
              picture={p}
              teamUuid={teamUuid}
              language={language}
              now={now}
              selected={selected.has(p.uploadId)}
              onSelect={
                canWrite
                  ? (on) => {
                      const next = new Set(selected);
                      if (on) next.add(p.uploadId);
                      else next.delete(p.uploadId);
                      setSelected(next);
                    }
                  : undefined
              }
              open={open.has(p.uploadId)}
              onToggle={() => {
                const next = new Set(open);
                if (next.has(p.uploadId)) next.delete(p.uploadId);
                else next.add(p.uploadId);
                setOpen(next);
              }}
              onOpenPicture={() => setPicture(p)}
              onRetry={(jobIds) => retryScope({ jobIds })}
              retrying={retry.isPending}
              onSendAgain={() => setSendAgain(p)}
            />
          ))}
        </Box>
      )}
      {!page.isPending && count > 0 && (
        <LogPager
          count={pagerCount}
          pageIndex={pageIndex}
          pageSize={pageSize}
          pageSizes={pageSizes}
          onPageIndex={setPageIndex}
          onPageSize={setPageSize}
          language={language}
          rowsPerPageLabel={t('rowsPerPage')}
          displayedRows={(numbers) =>
            t(page.data?.countCapped ? 'displayedRowsMore' : 'displayedRows', {
              ...numbers,
              count: formatNumber(count, language),
            })
          }
        />
      )}
      <PictureDialog
        teamUuid={teamUuid}
        uploadId={picture?.uploadId ?? null}
        filename={picture?.filename ?? ''}
        onClose={() => setPicture(null)}
      />
      <SendAgainDialog
        open={sendAgain !== null}
        filename={sendAgain?.filename ?? ''}
        destinations={(page.data?.destinations ?? []).map((d) => d.name)}
        pending={send.isPending}
        onClose={() => setSendAgain(null)}
        onSend={(destinations) =>
          sendAgain &&
          send.mutate(
            {
              uploadId: sendAgain.uploadId,
              // All chosen: every destination the project has then, one added meanwhile included.
              destinations:
                destinations.length === (page.data?.destinations ?? []).length ? undefined : destinations,
            },
            {
              onSuccess: (jobs) => {
                enqueueSnackbar(t('sentAgain', { count: jobs }), { variant: 'success' });
                setSendAgain(null);
              },
            },
          )
        }
      />
    </Box>
  );
}
