// The job detail's picture (issue 16): the file as it went out, larger, with the caption and
// credit stamped into it.

import CloseIcon from '@mui/icons-material/Close';
import {
  Box,
  Dialog,
  DialogContent,
  DialogTitle,
  IconButton,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadPictureUrl, useUploadCaption } from '../api/pictures.ts';

export function PictureDialog({
  teamUuid,
  uploadId,
  filename,
  onClose,
}: {
  teamUuid: string;
  uploadId: number | null;
  filename: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('pictures');
  const caption = useUploadCaption(teamUuid, uploadId);
  const [failed, setFailed] = useState(false);
  return (
    <Dialog open={uploadId !== null} onClose={onClose} maxWidth="md" fullWidth data-testid="picture-dialog">
      <DialogTitle sx={{ pr: 6, overflowWrap: 'anywhere' }}>
        {filename}
        <IconButton
          aria-label={t('close')}
          onClick={onClose}
          sx={{ position: 'absolute', right: 12, top: 12 }}
        >
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {uploadId !== null &&
          (failed ? (
            <Typography color="text.secondary">{t('noPicture')}</Typography>
          ) : (
            <Box
              component="img"
              src={uploadPictureUrl(teamUuid, uploadId, 'large')}
              alt={filename}
              onError={() => setFailed(true)}
              sx={{
                width: '100%',
                maxHeight: '60vh',
                objectFit: 'contain',
                bgcolor: '#111',
                borderRadius: 1,
              }}
              data-testid="picture-large"
            />
          ))}
        <Stack spacing={1} sx={{ mt: 2 }}>
          {caption.isPending ? (
            <Skeleton width="60%" />
          ) : (
            <>
              <Typography variant="body2" data-testid="picture-caption">
                <Box component="span" sx={{ fontWeight: 600 }}>
                  {t('caption')}:
                </Box>{' '}
                {caption.data?.caption ?? t('none')}
              </Typography>
              <Typography variant="body2" data-testid="picture-credit">
                <Box component="span" sx={{ fontWeight: 600 }}>
                  {t('credit')}:
                </Box>{' '}
                {caption.data?.credit ?? t('none')}
              </Typography>
            </>
          )}
        </Stack>
      </DialogContent>
    </Dialog>
  );
}
