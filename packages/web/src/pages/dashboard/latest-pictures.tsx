// The dashboard's newest pictures of today (issue 16 "pictures, not only rows"): thumbnails that
// open the picture larger with its caption and credit; a link to the whole day.
import { Box, Button, Card, Stack, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { type RecentUpload, startOfToday, useRecentUploads } from '../../api/pictures.ts';
import { CardHeading } from '../../ui/card-heading.tsx';
import { PictureDialog } from '../../ui/picture-dialog.tsx';
import { PictureThumb } from '../../ui/picture-thumb.tsx';

export function LatestPictures({ teamUuid }: { teamUuid: string }) {
  const { t } = useTranslation('pictures');
  const [since] = useState(startOfToday);
  const uploads = useRecentUploads(teamUuid, since, 12, 10_000);
  const [open, setOpen] = useState<RecentUpload | null>(null);
  const rows = uploads.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Card sx={{ mb: 3 }} data-testid="latest-pictures">
      <CardHeading
        title={t('latestTitle')}
        subtitle={t('latestSubtitle')}
        actions={
          <Button component={RouterLink} to="/pictures" size="small">
            {t('allToday')}
          </Button>
        }
      />
      <Stack direction="row" spacing={1.5} sx={{ px: 2.5, pb: 2.5, overflowX: 'auto' }}>
        {rows.map((upload) => (
          <Tooltip key={upload.id} title={`${upload.filename} · ${upload.project}`}>
            <Box>
              <PictureThumb
                teamUuid={teamUuid}
                uploadId={upload.id}
                size={88}
                label={t('openPicture', { name: upload.filename })}
                onOpen={() => setOpen(upload)}
              />
            </Box>
          </Tooltip>
        ))}
      </Stack>
      <PictureDialog
        teamUuid={teamUuid}
        uploadId={open?.id ?? null}
        filename={open?.filename ?? ''}
        onClose={() => setOpen(null)}
      />
    </Card>
  );
}
