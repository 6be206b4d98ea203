// A project's or folder's script (spec §2 script tab, folder page): upload (.script), download,
// remove, and the source read-only with line numbers; a syntax error marks its line.
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../api/client.ts';
import { type ScriptOwner, useDeleteScript, useScript, useStoreScriptFile } from '../api/scripts.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { type PositionedFailure, splitPositionedError } from './positioned-error.ts';
import { PositionedFailureAlert } from './positioned-failure.tsx';
import { readAsDataUrl } from './read-file.ts';
import { describeError } from './report-error.ts';

type Failure = PositionedFailure;

function failureOf(error: unknown): Failure {
  const text =
    isApiError(error) && error.serverMessage
      ? error.serverMessage
      : error instanceof Error
        ? error.message
        : describeError(error);
  return splitPositionedError(text);
}

function saveText(filename: string, content: string) {
  const url = URL.createObjectURL(new Blob([content], { type: 'text/javascript' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The source with line numbers; `markLine` is highlighted (the line of a syntax error). */
function SourceView({ source, markLine, label }: { source: string; markLine?: number; label: string }) {
  const lines = source.split(/\r?\n/);
  return (
    <Box
      component="pre"
      aria-label={label}
      data-testid="script-source"
      sx={{
        m: 0,
        mt: 1.5,
        p: 1,
        maxHeight: 480,
        overflow: 'auto',
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
        fontSize: 13,
        bgcolor: '#f6f8fa',
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
      }}
    >
      {lines.map((line, index) => {
        const number = index + 1;
        const marked = number === markLine;
        return (
          <Box
            // Lines have no identity of their own beyond their number.
            // biome-ignore lint/suspicious/noArrayIndexKey: the line number is the key
            key={index}
            data-testid={marked ? 'script-error-line' : undefined}
            sx={{ display: 'flex', bgcolor: marked ? '#fde7e9' : undefined }}
          >
            <Box
              component="span"
              sx={{
                width: 40,
                flexShrink: 0,
                textAlign: 'right',
                pr: 1.5,
                color: 'text.secondary',
                userSelect: 'none',
              }}
            >
              {number}
            </Box>
            <Box component="span" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {line || ' '}
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

export function ScriptPanel({
  teamUuid,
  owner,
  canWrite,
}: {
  teamUuid: string;
  owner: ScriptOwner;
  canWrite: boolean;
}) {
  const { t } = useTranslation('scriptTab');
  const { enqueueSnackbar } = useSnackbar();
  const script = useScript(teamUuid, owner);
  const store = useStoreScriptFile(teamUuid, owner);
  const remove = useDeleteScript(teamUuid, owner);
  const input = useRef<HTMLInputElement>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [failedSource, setFailedSource] = useState<{ name: string; source: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const current = script.data?.script[0];

  const upload = async (file: File) => {
    setFailure(null);
    setFailedSource(null);
    if (!file.name.toLowerCase().endsWith('.script')) {
      enqueueSnackbar(t('panel.onlyScript'), { variant: 'warning' });
      return;
    }
    try {
      await store.store(file.name, await readAsDataUrl(file));
      enqueueSnackbar(t('panel.finished'), { variant: 'success' });
    } catch (error) {
      setFailure(failureOf(error));
      // The refused source is shown with its error line marked, so it can be fixed.
      setFailedSource({ name: file.name, source: await file.text() });
    }
  };

  const shown = failedSource ?? (current ? { name: current.filename, source: current.source } : null);
  return (
    <Card data-testid="script-panel">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t('panel.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25, mb: 1.5 }}>
          {owner.kind === 'project' ? t('panel.textProject') : t('panel.textFolder')} {t('panel.docs')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          {canWrite && (
            <>
              <input
                ref={input}
                type="file"
                accept=".script"
                hidden
                data-testid="script-file-input"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) void upload(file);
                }}
              />
              <Button
                variant="contained"
                size="small"
                startIcon={store.isPending ? <CircularProgress size={16} /> : <UploadFileIcon />}
                disabled={store.isPending}
                onClick={() => input.current?.click()}
                data-testid="script-upload"
              >
                {t('panel.upload')}
              </Button>
            </>
          )}
          {current && (
            <Button
              size="small"
              startIcon={<DownloadIcon />}
              onClick={() => saveText(current.filename, current.source)}
              data-testid="script-download"
            >
              {t('panel.download')}
            </Button>
          )}
          {current && canWrite && (
            <Button
              size="small"
              color="error"
              startIcon={<DeleteOutlineIcon />}
              onClick={() => setConfirming(true)}
              data-testid="script-remove"
            >
              {t('panel.remove')}
            </Button>
          )}
        </Stack>
        {failure && (
          <PositionedFailureAlert
            label={t('panel.failed')}
            failure={failure}
            onClose={() => setFailure(null)}
            testId="script-error"
          />
        )}
        {script.isPending && <CircularProgress size={20} sx={{ mt: 1.5 }} />}
        {!script.isPending && !shown && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            {t('panel.none')}
          </Typography>
        )}
        {shown && (
          <SourceView
            source={shown.source}
            label={t('panel.source', { name: shown.name })}
            {...(failedSource && failure?.line ? { markLine: failure.line } : {})}
          />
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title={t('panel.confirmTitle')}
        message={t('panel.confirmRemove')}
        confirmLabel={t('panel.remove')}
        cancelLabel={t('panel.cancel')}
        busy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              enqueueSnackbar(t('panel.removed'), { variant: 'success' });
            },
          })
        }
        testId="script-remove-dialog"
      />
    </Card>
  );
}
