// "My pictures today" (issue 16): a photographer's page for a phone at the side of a pitch. The
// pictures received today in the projects the member may see, newest first, each with its
// thumbnail and how far it got to each destination; live (asked for every second). Issue 28:
// read from the job log, so a failing destination is named once above the pictures (not under
// each), a script error once on its picture; "Retry all failed" and "Send again" are here too.
import PhotoCameraOutlinedIcon from '@mui/icons-material/PhotoCameraOutlined';
import ReplayOutlinedIcon from '@mui/icons-material/ReplayOutlined';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import { Box, Button, Card, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFolderTree } from '../../api/folders.ts';
import { type PictureRow, usePictures, useRetryFailed, useSendAgain } from '../../api/picture-log.ts';
import { startOfToday } from '../../api/pictures.ts';
import { DestinationProblems } from '../../ui/destination-problems.tsx';
import { FailureCauseLine } from '../../ui/failure-cause.tsx';
import { formatTime } from '../../ui/format.ts';
import { MetadataNotes } from '../../ui/metadata-notes.tsx';
import { PageContainer, PageHeader, StatusPanel } from '../../ui/page.tsx';
import { PictureDialog } from '../../ui/picture-dialog.tsx';
import { PictureThumb } from '../../ui/picture-thumb.tsx';
import { SendAgainDialog } from '../../ui/send-again-dialog.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { findNode } from '../../ui/tree/tree-rules.ts';
import { deliveryTone, toneColor } from './delivery-state.ts';

function PictureCard({
  upload,
  teamUuid,
  onOpen,
  bannered,
  onSendAgain,
}: {
  upload: PictureRow;
  teamUuid: string;
  onOpen: () => void;
  /** Destinations named in a banner above: their error is not repeated here. */
  bannered: Set<string>;
  onSendAgain: () => void;
}) {
  const { t, i18n } = useTranslation('pictures');
  const { t: tl } = useTranslation('jobLog');
  return (
    <Card sx={{ p: 1.5 }} data-testid="my-picture">
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <PictureThumb
          teamUuid={teamUuid}
          uploadId={upload.uploadId}
          size={72}
          label={upload.filename}
          onOpen={onOpen}
        />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {upload.filename}
          </Typography>
          {upload.cause && <FailureCauseLine cause={upload.cause} testId="my-picture-cause" />}
          <MetadataNotes
            picture={upload}
            teamUuid={teamUuid}
            canRelease={upload.deliveries.some((d) => d.canRetry)}
          />
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t('receivedIn', {
              time: formatTime(upload.receivedAt, i18n.resolvedLanguage ?? 'en'),
              project: upload.project,
            })}
          </Typography>
          <Stack spacing={0.5} sx={{ mt: 1 }}>
            {upload.deliveries.length === 0 && (
              // Default colours: the outlined info chip read at 3.9:1 (axe, issue 28).
              <Chip
                size="small"
                variant="outlined"
                label={t('tones.arrived')}
                sx={{ alignSelf: 'flex-start' }}
              />
            )}
            {upload.deliveries.map((delivery, index) => {
              const tone = deliveryTone(delivery);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: deliveries keep their order (by job)
                <Box key={index} data-testid="my-picture-delivery" data-tone={tone}>
                  <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    <Chip
                      size="small"
                      color={toneColor[tone]}
                      label={t(`tones.${tone}`)}
                      sx={{ fontWeight: 600 }}
                    />
                    <Typography variant="body2" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                      {delivery.name}
                    </Typography>
                  </Stack>
                  {delivery.cause && !bannered.has(delivery.name) && (
                    <FailureCauseLine
                      cause={delivery.cause}
                      color={tone === 'failed' ? 'error' : 'warning.main'}
                      testId="my-picture-reason"
                    />
                  )}
                </Box>
              );
            })}
          </Stack>
          {upload.canSendAgain && (
            <Button
              size="small"
              startIcon={<SendOutlinedIcon />}
              onClick={onSendAgain}
              sx={{ mt: 0.5, ml: -0.5 }}
              data-testid="my-picture-send-again"
            >
              {tl('sendAgain')}
            </Button>
          )}
        </Box>
      </Stack>
    </Card>
  );
}

export function PicturesPage() {
  const { t } = useTranslation('pictures');
  const { t: tl } = useTranslation('jobLog');
  const { enqueueSnackbar } = useSnackbar();
  const team = useCurrentTeam();
  // The day is fixed while the page is open; a reload after midnight starts the next one.
  const [since] = useState(startOfToday);
  const filter = useMemo(() => ({ from: since }), [since]);
  const log = usePictures(team.teamid, filter, 200, 0);
  const tree = useFolderTree(team.teamid);
  const hasProject = !tree.data || findNode(tree.data, (node) => node.type === 'project') !== null;
  const retry = useRetryFailed(team.teamid);
  const send = useSendAgain(team.teamid);
  const [open, setOpen] = useState<PictureRow | null>(null);
  const [sendAgain, setSendAgain] = useState<PictureRow | null>(null);
  const rows = log.data?.pictures ?? [];
  const problems = log.data?.problems ?? [];
  const bannered = new Set(problems.map((p) => p.name));
  const anyRetryable = rows.some((r) => r.deliveries.some((d) => d.canRetry && d.state !== 'succeeded'));
  const retried = {
    onSuccess: (count: number) =>
      enqueueSnackbar(tl('retried', { count }), { variant: count > 0 ? 'success' : 'info' }),
  };
  return (
    <PageContainer>
      <PageHeader title={t('title')} subtitle={t('subtitle')} icon={<PhotoCameraOutlinedIcon />} />
      {log.isPending ? (
        <Stack spacing={1.5}>
          <Skeleton variant="rounded" height={96} />
          <Skeleton variant="rounded" height={96} />
        </Stack>
      ) : rows.length === 0 ? (
        <Card>
          <StatusPanel
            icon={<PhotoCameraOutlinedIcon />}
            title={t('emptyTitle')}
            // Issue 27 item 6: without a visible project no camera can deliver: say whom to ask.
            text={
              hasProject ? t('emptyText') : `${t('emptyText')} ${t('emptyNoProject', { team: team.name })}`
            }
            testId="my-pictures-empty"
          />
        </Card>
      ) : (
        <Stack spacing={1.5} data-testid="my-pictures" sx={{ maxWidth: 720 }}>
          <Box sx={{ mx: { xs: -1, sm: -2 } }}>
            <DestinationProblems
              problems={problems}
              retrying={retry.isPending}
              onRetry={(problem) =>
                retry.mutate({ projectid: problem.projectid, destination: problem.name }, retried)
              }
            />
          </Box>
          {anyRetryable && (
            <Button
              variant="outlined"
              startIcon={<ReplayOutlinedIcon />}
              onClick={() =>
                retry.mutate(
                  {
                    jobIds: rows.flatMap((r) =>
                      r.deliveries.filter((d) => d.canRetry && d.state !== 'succeeded').map((d) => d.jobId),
                    ),
                  },
                  retried,
                )
              }
              disabled={retry.isPending}
              sx={{ alignSelf: 'flex-start' }}
              data-testid="my-pictures-retry-all"
            >
              {tl('retryAll')}
            </Button>
          )}
          {rows.map((upload) => (
            <PictureCard
              key={upload.uploadId}
              upload={upload}
              teamUuid={team.teamid}
              bannered={bannered}
              onOpen={() => setOpen(upload)}
              onSendAgain={() => setSendAgain(upload)}
            />
          ))}
        </Stack>
      )}
      <PictureDialog
        teamUuid={team.teamid}
        uploadId={open?.uploadId ?? null}
        filename={open?.filename ?? ''}
        onClose={() => setOpen(null)}
      />
      <SendAgainDialog
        open={sendAgain !== null}
        filename={sendAgain?.filename ?? ''}
        destinations={(sendAgain?.deliveries ?? []).map((d) => d.name)}
        pending={send.isPending}
        onClose={() => setSendAgain(null)}
        onSend={(chosen) =>
          sendAgain &&
          send.mutate(
            {
              uploadId: sendAgain.uploadId,
              // All chosen: every destination the project has now, one added since included.
              destinations: chosen.length === sendAgain.deliveries.length ? undefined : chosen,
            },
            {
              onSuccess: (jobs) => {
                enqueueSnackbar(tl('sentAgain', { count: jobs }), { variant: 'success' });
                setSendAgain(null);
              },
            },
          )
        }
      />
    </PageContainer>
  );
}
