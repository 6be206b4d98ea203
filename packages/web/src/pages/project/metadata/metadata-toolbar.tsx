// The metadata tab's toolbar (spec §2 'Project tabs' Metadata, §4 saving): the save state of the
// template, 'Hide unset values', Download XMP and Clear.
import CloudDoneOutlinedIcon from '@mui/icons-material/CloudDoneOutlined';
import DeleteSweepOutlinedIcon from '@mui/icons-material/DeleteSweepOutlined';
import EditNoteOutlinedIcon from '@mui/icons-material/EditNoteOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import { Button, CircularProgress, FormControlLabel, Paper, Stack, Switch, Typography } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadXmpFileDetail, useDownloadXmpFile } from '../../../api/metadata.ts';
import type { MetadataEditorStore } from './editor-store.ts';
import { saveTextFile } from './files.ts';
import { useMetadata, useSaveSummary } from './metadata-context.tsx';

function SaveIndicator({ store }: { store: MetadataEditorStore }) {
  const { t } = useTranslation('metadataTab');
  const summary = useSaveSummary(store);
  const look: Record<typeof summary, { icon: ReactNode; color: string }> = {
    saved: { icon: <CloudDoneOutlinedIcon fontSize="small" />, color: 'text.secondary' },
    pending: { icon: <EditNoteOutlinedIcon fontSize="small" />, color: 'warning.main' },
    saving: { icon: <CircularProgress size={16} color="inherit" />, color: 'primary.main' },
    error: { icon: <ErrorOutlineIcon fontSize="small" />, color: 'error.main' },
  };
  return (
    <Stack
      direction="row"
      spacing={0.75}
      sx={{ alignItems: 'center', color: look[summary].color, minHeight: 32 }}
      role="status"
      aria-live="polite"
      data-testid="xmp-save-status"
      data-state={summary}
    >
      {look[summary].icon}
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {t(`save.${summary}`)}
      </Typography>
    </Stack>
  );
}

export function MetadataToolbar({
  hideUnset,
  onHideUnset,
  onClear,
}: {
  hideUnset: boolean;
  onHideUnset: (hide: boolean) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('metadataTab');
  const { teamUuid, projectId, canWrite, store } = useMetadata();
  const download = useDownloadXmpFile(teamUuid);
  const [downloading, setDownloading] = useState(false);

  const downloadXmp = async () => {
    setDownloading(true);
    try {
      await store.flush();
      const detail = downloadXmpFileDetail.parse(await download.mutateAsync({ dbprojectid: projectId }));
      saveTextFile(detail.filename, detail.content);
    } catch {
      // Spec §8: a failed XMP download is ignored silently.
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1 }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={{ xs: 1, md: 2 }}
        sx={{ alignItems: { xs: 'flex-start', md: 'center' }, justifyContent: 'space-between' }}
      >
        <SaveIndicator store={store} />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <FormControlLabel
            control={
              <Switch
                size="small"
                checked={hideUnset}
                onChange={(event) => onHideUnset(event.target.checked)}
                slotProps={{ input: { 'data-testid': 'xmp-hide-unset' } as Record<string, string> }}
              />
            }
            label={<Typography variant="body2">{t('hideUnset')}</Typography>}
            sx={{ mr: 1 }}
          />
          <Button
            variant="outlined"
            size="small"
            startIcon={
              downloading ? <CircularProgress size={16} color="inherit" /> : <FileDownloadOutlinedIcon />
            }
            onClick={() => void downloadXmp()}
            disabled={downloading}
            data-testid="xmp-download"
          >
            {t('downloadXmp')}
          </Button>
          <Button
            variant="outlined"
            color="error"
            size="small"
            startIcon={<DeleteSweepOutlinedIcon />}
            onClick={onClear}
            disabled={!canWrite}
            data-testid="xmp-clear"
          >
            {t('clear')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
