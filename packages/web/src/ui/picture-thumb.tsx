// An upload's thumbnail: loaded lazily, an icon while there is none (no picture, or not yet).
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import { Box, ButtonBase } from '@mui/material';
import { useState } from 'react';
import { uploadPictureUrl } from '../api/pictures.ts';

export function PictureThumb({
  teamUuid,
  uploadId,
  size = 48,
  label,
  onOpen,
}: {
  teamUuid: string;
  uploadId: number;
  size?: number;
  /** The picture's name, for screen readers and the tooltip. */
  label: string;
  onOpen?: () => void;
}) {
  const [missing, setMissing] = useState(false);
  const box = {
    width: size,
    height: size,
    borderRadius: 1,
    overflow: 'hidden',
    flexShrink: 0,
    bgcolor: '#eef1f6',
    display: 'grid',
    placeItems: 'center',
    color: 'text.disabled',
  } as const;
  const content = missing ? (
    <ImageOutlinedIcon fontSize="small" />
  ) : (
    <Box
      component="img"
      src={uploadPictureUrl(teamUuid, uploadId, 'small')}
      alt={label}
      loading="lazy"
      onError={() => setMissing(true)}
      sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
    />
  );
  if (!onOpen)
    return (
      <Box sx={box} data-testid="picture-thumb">
        {content}
      </Box>
    );
  return (
    <ButtonBase onClick={onOpen} title={label} aria-label={label} sx={box} data-testid="picture-thumb">
      {content}
    </ButtonBase>
  );
}
