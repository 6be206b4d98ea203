// "My pictures today" (issue 16): a photographer's page for a phone at the side of a pitch. The
// pictures received today in the projects the member may see, newest first, each with its
// thumbnail and how far it got to each destination; live (asked for every second).
import PhotoCameraOutlinedIcon from '@mui/icons-material/PhotoCameraOutlined';
import { Box, Card, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type RecentUpload, startOfToday, useRecentUploads } from '../../api/pictures.ts';
import { formatTime } from '../../ui/format.ts';
import { PageContainer, PageHeader, StatusPanel } from '../../ui/page.tsx';
import { PictureDialog } from '../../ui/picture-dialog.tsx';
import { PictureThumb } from '../../ui/picture-thumb.tsx';
import { PlainError } from '../../ui/plain-error.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { deliveryTone, toneColor } from './delivery-state.ts';

function PictureCard({
  upload,
  teamUuid,
  onOpen,
}: {
  upload: RecentUpload;
  teamUuid: string;
  onOpen: () => void;
}) {
  const { t, i18n } = useTranslation('pictures');
  return (
    <Card sx={{ p: 1.5 }} data-testid="my-picture">
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <PictureThumb
          teamUuid={teamUuid}
          uploadId={upload.id}
          size={72}
          label={upload.filename}
          onOpen={onOpen}
        />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {upload.filename}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t('receivedIn', {
              time: formatTime(upload.receivedAt, i18n.resolvedLanguage ?? 'en'),
              project: upload.project,
            })}
          </Typography>
          <Stack spacing={0.5} sx={{ mt: 1 }}>
            {upload.deliveries.length === 0 && (
              <Chip
                size="small"
                color="info"
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
                  {(tone === 'retrying' || tone === 'failed') && delivery.errortext && (
                    <PlainError
                      text={delivery.errortext}
                      color={tone === 'failed' ? 'error' : 'warning.main'}
                      testId="my-picture-reason"
                    />
                  )}
                </Box>
              );
            })}
          </Stack>
        </Box>
      </Stack>
    </Card>
  );
}

export function PicturesPage() {
  const { t } = useTranslation('pictures');
  const team = useCurrentTeam();
  // The day is fixed while the page is open; a reload after midnight starts the next one.
  const [since] = useState(startOfToday);
  const uploads = useRecentUploads(team.teamid, since, 200, 1_000);
  const [open, setOpen] = useState<RecentUpload | null>(null);
  const rows = uploads.data ?? [];
  return (
    <PageContainer>
      <PageHeader title={t('title')} subtitle={t('subtitle')} icon={<PhotoCameraOutlinedIcon />} />
      {uploads.isPending ? (
        <Stack spacing={1.5}>
          <Skeleton variant="rounded" height={96} />
          <Skeleton variant="rounded" height={96} />
        </Stack>
      ) : rows.length === 0 ? (
        <Card>
          <StatusPanel
            icon={<PhotoCameraOutlinedIcon />}
            title={t('emptyTitle')}
            text={t('emptyText')}
            testId="my-pictures-empty"
          />
        </Card>
      ) : (
        <Stack spacing={1.5} data-testid="my-pictures" sx={{ maxWidth: 720 }}>
          {rows.map((upload) => (
            <PictureCard
              key={upload.id}
              upload={upload}
              teamUuid={team.teamid}
              onOpen={() => setOpen(upload)}
            />
          ))}
        </Stack>
      )}
      <PictureDialog
        teamUuid={team.teamid}
        uploadId={open?.id ?? null}
        filename={open?.filename ?? ''}
        onClose={() => setOpen(null)}
      />
    </PageContainer>
  );
}
