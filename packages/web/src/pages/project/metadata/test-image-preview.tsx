// Preview on the metadata tab (spec §2, §7 processimage): a .jpg test image is stamped with the
// project's values by the server and offered for download. Failures read 'Something went wrong:'
// followed by position and message (spec §8).
import DownloadIcon from '@mui/icons-material/Download';
import ImageOutlinedIcon from '@mui/icons-material/ImageOutlined';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { metadataLimits } from '@photorelay/contract/metadata';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  downloadResultUrl,
  type ProcessImageDetail,
  processImageDetail,
  useProcessImage,
} from '../../../api/metadata.ts';
import { emptyVariableOf, useEmptyVariableText } from '../../../ui/empty-variable.ts';
import { formatSize } from '../../../ui/format.ts';
import { type PositionedFailure, splitPositionedError } from '../../../ui/positioned-error.ts';
import { PositionedFailureAlert } from '../../../ui/positioned-failure.tsx';
import { readAsDataUrl } from '../../../ui/read-file.ts';
import { DropArea } from './drop-area.tsx';
import { errorText } from './error-text.ts';
import { ProcessingReport } from './processing-report.tsx';

type Failure = PositionedFailure;

/**
 * On the Metadata tab `flush` first saves pending edits; the Overview tab shows the same card
 * with nothing to flush.
 */
export function TestImageCard({
  teamUuid,
  projectId,
  flush = async () => {},
}: {
  teamUuid: string;
  projectId: number;
  flush?: () => Promise<unknown>;
}) {
  const { t, i18n } = useTranslation('metadataTab');
  const emptyVariableText = useEmptyVariableText();
  const language = i18n.resolvedLanguage === 'de' ? 'de' : 'en';
  const { enqueueSnackbar } = useSnackbar();
  const process = useProcessImage(teamUuid);
  const [working, setWorking] = useState<{ name: string; previewUrl: string } | null>(null);
  const [result, setResult] = useState<ProcessImageDetail | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);

  // The local preview is an object URL: released when replaced or when the card goes.
  useEffect(
    () => () => {
      if (working) URL.revokeObjectURL(working.previewUrl);
    },
    [working],
  );

  const start = async (file: File) => {
    setResult(null);
    setFailure(null);
    if (file.size > metadataLimits.testImageBytes) {
      enqueueSnackbar(t('preview.tooLarge', { size: formatSize(metadataLimits.testImageBytes, language) }), {
        variant: 'warning',
      });
      return;
    }
    setWorking({ name: file.name, previewUrl: URL.createObjectURL(file) });
    try {
      const [content] = await Promise.all([readAsDataUrl(file), flush()]);
      // The picture is stamped with what the server holds: the edits just typed are saved first.
      const detail = await process.mutateAsync({ dbprojectid: projectId, filename: file.name, content });
      const parsed = processImageDetail.safeParse(detail);
      if (parsed.success) setResult(parsed.data);
      else setFailure({ message: t('preview.failed') });
    } catch (error) {
      setFailure(splitPositionedError(errorText(error)));
    } finally {
      setWorking(null);
    }
  };

  const busy = working !== null;
  const resultUrl = result ? downloadResultUrl(teamUuid, result.a, result.b) : undefined;

  return (
    <Card>
      <CardContent sx={{ p: 2, '&:last-child': { pb: 2 } }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('preview.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25, mb: 1.5 }}>
          {t('preview.text')}
        </Typography>
        <DropArea
          extensions={['.jpg', '.jpeg']}
          mimeType="image/jpeg"
          icon={<ImageOutlinedIcon />}
          text={t('preview.drop')}
          activeText={t('preview.dropActive')}
          disabled={busy}
          onFile={(file) => void start(file)}
          onWrongType={() => enqueueSnackbar(t('preview.onlyJpg'), { variant: 'warning' })}
          testId="xmp-preview"
        />

        {working && (
          <Stack
            direction="row"
            spacing={1.5}
            sx={{ mt: 1.5, alignItems: 'center' }}
            data-testid="xmp-preview-busy"
          >
            <Box
              component="img"
              src={working.previewUrl}
              alt=""
              sx={{ width: 56, height: 56, objectFit: 'cover', borderRadius: 1, opacity: 0.6 }}
            />
            <CircularProgress size={20} />
            <Typography variant="body2" color="text.secondary" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              {t('preview.processing', { name: working.name })}
            </Typography>
          </Stack>
        )}

        {failure && (
          <PositionedFailureAlert
            label={t('preview.failed')}
            failure={failure}
            onClose={() => setFailure(null)}
            testId="xmp-preview-error"
          />
        )}

        {result && resultUrl && (
          <Box sx={{ mt: 1.5 }} data-testid="xmp-preview-result">
            <Box
              component="img"
              src={resultUrl}
              alt={t('preview.result')}
              sx={{
                display: 'block',
                width: '100%',
                maxHeight: 220,
                objectFit: 'contain',
                borderRadius: 1.5,
                bgcolor: '#eef1f6',
                border: 1,
                borderColor: 'divider',
              }}
            />
            <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {result.filename}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {formatSize(result.size, language)}
                </Typography>
              </Box>
              <Button
                variant="contained"
                size="small"
                startIcon={<DownloadIcon />}
                href={resultUrl}
                download={result.filename}
                data-testid="xmp-preview-download"
              >
                {t('preview.download')}
              </Button>
            </Stack>
            {result.report && <ProcessingReport report={result.report} />}
            {(result.warnings.length > 0 || result.unknownVariables.length > 0) && (
              <Alert severity="info" sx={{ mt: 1.5 }}>
                <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }}>
                  {t('preview.notes')}
                </Typography>
                <Stack component="ul" spacing={0.25} sx={{ m: 0, pl: 2 }}>
                  {result.unknownVariables.length > 0 && (
                    <Box component="li" sx={{ fontSize: 13 }}>
                      {t('preview.unknownVariables', {
                        names: result.unknownVariables.map((name) => `{${name}}`).join(', '),
                      })}
                    </Box>
                  )}
                  {result.warnings.slice(0, 20).map((warning) => {
                    const empty = emptyVariableOf(warning);
                    return (
                      <Box
                        component="li"
                        key={warning}
                        sx={{ fontSize: 13 }}
                        data-testid={empty ? 'xmp-preview-empty-variable' : undefined}
                      >
                        {empty ? emptyVariableText(empty) : warning}
                      </Box>
                    );
                  })}
                </Stack>
              </Alert>
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
