// Import of an .xmp sidecar (spec §2, §5, §8): only .xmp is accepted, the user is warned that every
// existing value is cleared, and the result is 'XMP-Datei wurde hochgeladen.' or 'XMP-Datei
// konnte nicht geladen werden: {error}'.
import UploadFileOutlinedIcon from '@mui/icons-material/UploadFileOutlined';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Collapse,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { metadataLimits } from '@photorelay/contract/metadata';
import { useQueryClient } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { metadataKeys, storeXmpFileDetail, useStoreXmpFile } from '../../../api/metadata.ts';
import { ConfirmDialog } from '../../../ui/confirm-dialog.tsx';
import { formatSize } from '../../../ui/format.ts';
import { readAsDataUrl } from '../../../ui/read-file.ts';
import { DropArea } from './drop-area.tsx';
import { errorText } from './error-text.ts';
import { useMetadata } from './metadata-context.tsx';

/** What the server noted about the imported file (values kept although not in their format, …). */
function ImportNotes({ notes, onClose }: { notes: string[]; onClose: () => void }) {
  const { t } = useTranslation('metadataTab');
  const [open, setOpen] = useState(false);
  return (
    <Alert severity="info" sx={{ mt: 1.5 }} onClose={onClose} data-testid="xmp-upload-notes">
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('upload.notes', { count: notes.length })}
      </Typography>
      <Button size="small" onClick={() => setOpen(!open)} sx={{ px: 0, minWidth: 0 }}>
        {open ? t('upload.hideNotes') : t('upload.showNotes')}
      </Button>
      <Collapse in={open}>
        <Stack component="ul" spacing={0.25} sx={{ m: 0, pl: 2, maxHeight: 240, overflowY: 'auto' }}>
          {notes.map((note) => (
            <Box component="li" key={note} sx={{ fontSize: 13, overflowWrap: 'anywhere' }}>
              {note}
            </Box>
          ))}
        </Stack>
      </Collapse>
    </Alert>
  );
}

export function XmpUploadCard() {
  const { t } = useTranslation('metadataTab');
  const { teamUuid, projectId, canWrite, store, values, language } = useMetadata();
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const upload = useStoreXmpFile(teamUuid);
  const [confirming, setConfirming] = useState<File | null>(null);
  const [reading, setReading] = useState(false);
  const [notes, setNotes] = useState<string[]>([]);
  const busy = upload.isPending || reading;
  const hasTemplate = values.xmpvalues.length > 0 || values.xmpmodes.length > 0;

  const fail = (error: string) => enqueueSnackbar(t('upload.failed', { error }), { variant: 'error' });

  const start = async (file: File) => {
    setConfirming(null);
    setNotes([]);
    if (file.size > metadataLimits.sidecarBytes) {
      fail(t('upload.tooLarge', { size: formatSize(metadataLimits.sidecarBytes, language) }));
      return;
    }
    let content: string;
    setReading(true);
    try {
      content = await readAsDataUrl(file);
      // The file replaces everything: edits not saved yet would only be overwritten.
      await store.settle();
    } catch (error) {
      fail(errorText(error));
      return;
    } finally {
      setReading(false);
    }
    upload.mutate(
      { dbprojectid: projectId, filename: file.name, content },
      {
        onSuccess: (detail) => {
          enqueueSnackbar(t('upload.success'), { variant: 'success' });
          const parsed = storeXmpFileDetail.safeParse(detail);
          setNotes(parsed.success ? parsed.data.warnings : []);
        },
        onError: (error) => fail(errorText(error)),
        onSettled: () =>
          queryClient.invalidateQueries({ queryKey: metadataKeys.values(teamUuid, projectId) }),
      },
    );
  };

  return (
    <Card>
      <CardContent sx={{ p: 2, '&:last-child': { pb: 2 } }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1.5 }}>
          {t('upload.title')}
        </Typography>
        <DropArea
          extensions={['.xmp']}
          mimeType="application/rdf+xml"
          icon={<UploadFileOutlinedIcon />}
          text={t('upload.drop')}
          activeText={t('upload.dropActive')}
          disabled={!canWrite || busy}
          onFile={(file) => (hasTemplate ? setConfirming(file) : void start(file))}
          onWrongType={() => enqueueSnackbar(t('upload.onlyXmp'), { variant: 'warning' })}
          testId="xmp-upload"
        />
        {busy && <LinearProgress sx={{ mt: 1.5, borderRadius: 1 }} data-testid="xmp-upload-busy" />}
        <Alert
          severity="warning"
          variant="outlined"
          sx={{ mt: 1.5, py: 0, '& .MuiAlert-message': { fontSize: 13 } }}
        >
          {t('upload.warning')}
        </Alert>
        {notes.length > 0 && <ImportNotes notes={notes} onClose={() => setNotes([])} />}
      </CardContent>
      <ConfirmDialog
        open={confirming !== null}
        title={t('upload.title')}
        message={t('upload.confirm', { name: confirming?.name ?? '' })}
        confirmLabel={t('upload.confirmButton')}
        cancelLabel={t('cancel')}
        onConfirm={() => confirming && void start(confirming)}
        onClose={() => setConfirming(null)}
        testId="xmp-upload-confirm"
      />
    </Card>
  );
}
