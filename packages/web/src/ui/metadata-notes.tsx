// Issue 26: what a picture's metadata step could not do, in plain lines on the picture log row
// and the phone page: sent without metadata (why), held because no metadata could be written
// (why, and "Send as is" in one click), EXIF texts that still show the camera's old value.
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import { Box, Button, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { type PictureRow, useReleaseHeld } from '../api/picture-log.ts';

export function MetadataNotes({
  picture,
  teamUuid,
  canRelease,
}: {
  picture: Pick<PictureRow, 'uploadId' | 'unstamped' | 'exifNotUpdated' | 'deliveries'>;
  teamUuid: string;
  /** The member may release (the row offers retries): otherwise the held line has no button. */
  canRelease: boolean;
}) {
  const { t, i18n } = useTranslation('jobLog');
  const { enqueueSnackbar } = useSnackbar();
  const release = useReleaseHeld(teamUuid);
  const held = picture.unstamped !== null && picture.deliveries.some((d) => d.state === 'held');
  const fields = new Intl.ListFormat(i18n.resolvedLanguage ?? 'en', { type: 'conjunction' }).format(
    picture.exifNotUpdated,
  );
  if (picture.unstamped === null && picture.exifNotUpdated.length === 0) return null;
  return (
    <Box sx={{ mt: 0.25 }}>
      {picture.unstamped !== null && (
        <Typography
          variant="body2"
          color="warning.dark"
          sx={{ overflowWrap: 'anywhere' }}
          data-testid={held ? 'picture-held' : 'picture-unstamped'}
        >
          {t(held ? 'heldUnstampable' : 'unstamped', { reason: picture.unstamped })}
        </Typography>
      )}
      {held && canRelease && (
        <Button
          size="small"
          variant="outlined"
          startIcon={<SendOutlinedIcon />}
          disabled={release.isPending}
          onClick={() =>
            release.mutate(picture.uploadId, {
              onSuccess: (count) => enqueueSnackbar(t('released', { count }), { variant: 'success' }),
            })
          }
          sx={{ mt: 0.5 }}
          data-testid="picture-release"
        >
          {t('releaseHeld')}
        </Button>
      )}
      {picture.exifNotUpdated.length > 0 && (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ overflowWrap: 'anywhere' }}
          data-testid="picture-exif-not-updated"
        >
          {t('exifNotUpdated', { fields, count: picture.exifNotUpdated.length })}
        </Typography>
      )}
    </Box>
  );
}
