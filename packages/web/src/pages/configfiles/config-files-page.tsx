// /configfiles (spec §2 'Config files page', §5): drop or choose an .xmp or .json file under
// 100 KB; a file with an existing name replaces it. Files can be downloaded and deleted.
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  Chip,
  CircularProgress,
  IconButton,
  Stack,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { configFileProblem } from '@photorelay/contract/configfiles';
import { useSnackbar } from 'notistack';
import { useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import {
  type ConfigFile,
  downloadFileUrl,
  useConfigFiles,
  useDeleteConfigFile,
  useUploadConfigFile,
} from '../../api/configfiles.ts';
import { ConfirmRemoval } from '../../ui/confirm-dialog.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { formatDateTime, formatSize } from '../../ui/format.ts';
import { OwnersAndOperatorsOnly } from '../../ui/owners-and-operators-only.tsx';
import { PageContainer, PageHeader, StatusPanel, useDocumentTitle } from '../../ui/page.tsx';
import { readAsDataUrl } from '../../ui/read-file.ts';
import { RemoveButton } from '../../ui/remove-button.tsx';
import { describeError } from '../../ui/report-error.ts';
import { useCurrentTeam } from '../../ui/session.ts';
import { replacedFileId } from './config-file-rules.ts';
import { PhotographersHelp } from './photographers-help.tsx';

function UploadArea({ teamUuid, files }: { teamUuid: string; files: readonly ConfigFile[] }) {
  const { t } = useTranslation('configFiles');
  const { enqueueSnackbar } = useSnackbar();
  const upload = useUploadConfigFile(teamUuid);
  const [failure, setFailure] = useState<string | null>(null);

  const send = async (file: File) => {
    setFailure(null);
    const problem = configFileProblem(file.name, file.size);
    if (problem) {
      enqueueSnackbar(t(problem), { variant: 'error' });
      return;
    }
    let content: string;
    try {
      content = await readAsDataUrl(file);
    } catch {
      enqueueSnackbar(t('uploadFailed'), { variant: 'error' });
      return;
    }
    upload.mutate(
      { name: file.name, content, dbconfigfileid: replacedFileId(files, file.name) },
      {
        onSuccess: () => enqueueSnackbar(t('uploaded'), { variant: 'success' }),
        onError: (error) => {
          enqueueSnackbar(t('uploadFailed'), { variant: 'error' });
          // The server says what is wrong with the content (e.g. 'Invalid JSON: …').
          setFailure(
            error instanceof ApiError && error.serverMessage ? error.serverMessage : describeError(error),
          );
        },
      },
    );
  };

  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    multiple: false,
    noClick: true,
    noKeyboard: true,
    disabled: upload.isPending,
    onDrop: (accepted) => {
      for (const file of accepted.slice(0, 1)) void send(file);
    },
  });

  return (
    <Box sx={{ p: 2.5 }}>
      <Box
        {...getRootProps()}
        data-testid="configfile-dropzone"
        sx={{
          border: '2px dashed',
          borderColor: isDragActive ? 'primary.main' : 'divider',
          bgcolor: isDragActive ? 'rgba(31,79,179,0.06)' : '#fafbfd',
          borderRadius: 2,
          px: 3,
          py: 3.5,
          textAlign: 'center',
          transition: 'border-color 120ms, background-color 120ms',
        }}
      >
        <input {...getInputProps()} data-testid="configfile-input" />
        <Stack spacing={1.25} sx={{ alignItems: 'center' }}>
          <Box sx={{ color: isDragActive ? 'primary.main' : 'text.secondary' }}>
            {upload.isPending ? (
              <CircularProgress size={32} />
            ) : (
              <CloudUploadOutlinedIcon sx={{ fontSize: 36 }} />
            )}
          </Box>
          <Typography sx={{ fontWeight: 600 }}>{isDragActive ? t('dropNow') : t('dropHere')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('rules')}
          </Typography>
          <Button
            variant="outlined"
            onClick={open}
            disabled={upload.isPending}
            startIcon={<InsertDriveFileOutlinedIcon />}
            data-testid="configfile-choose"
          >
            {t('choose')}
          </Button>
        </Stack>
      </Box>
      {failure && (
        <Alert
          severity="error"
          onClose={() => setFailure(null)}
          sx={{ mt: 2 }}
          data-testid="configfile-failure"
        >
          <AlertTitle>{t('uploadFailed')}</AlertTitle>
          {failure}
        </Alert>
      )}
    </Box>
  );
}

function FilesTable({
  teamUuid,
  files,
  loading,
}: {
  teamUuid: string;
  files: readonly ConfigFile[];
  loading: boolean;
}) {
  const { t, i18n } = useTranslation('configFiles');
  const { t: tc } = useTranslation('common');
  const remove = useDeleteConfigFile(teamUuid);
  const [deleting, setDeleting] = useState<ConfigFile | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const language = i18n.resolvedLanguage ?? 'en';

  const download = (file: ConfigFile) => {
    // Spec §2: the download goes through a hidden frame, so the page stays where it is.
    if (frame.current)
      frame.current.src = `${downloadFileUrl(teamUuid, file.dbconfigfileid)}?t=${Date.now()}`;
  };

  return (
    <>
      <DataTable
        loading={loading}
        rows={files}
        rowKey={(file) => file.dbconfigfileid}
        empty={
          <StatusPanel
            icon={<DescriptionOutlinedIcon />}
            title={t('empty')}
            text={t('emptyText')}
            testId="configfiles-empty"
          />
        }
        testId="configfiles-table"
        ariaLabel={t('title')}
        columns={[
          { label: t('columns.file') },
          { label: t('columns.size'), align: 'right' },
          { label: t('columns.date') },
          { label: t('columns.actions'), labelHidden: true, align: 'right', width: 110 },
        ]}
        renderRow={(file) => (
          <TableRow hover data-testid={`configfile-row-${file.name}`}>
            <TableCell>
              <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center' }}>
                <DescriptionOutlinedIcon fontSize="small" sx={{ color: 'text.secondary' }} />
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {file.name}
                </Typography>
                <Chip
                  size="small"
                  label={file.name.split('.').pop()?.toUpperCase()}
                  sx={{ height: 20, fontSize: '0.68rem', fontWeight: 600 }}
                />
              </Stack>
            </TableCell>
            <TableCell
              align="right"
              sx={{ fontVariantNumeric: 'tabular-nums' }}
              data-testid="configfile-size"
            >
              {formatSize(file.size, language)}
            </TableCell>
            <TableCell sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
              {formatDateTime(file.time, language)}
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <Tooltip title={tc('actions.download')}>
                <IconButton size="small" onClick={() => download(file)} data-testid="configfile-download">
                  <FileDownloadOutlinedIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <RemoveButton
                label={t('delete.title')}
                onClick={() => setDeleting(file)}
                testId="configfile-delete"
              />
            </TableCell>
          </TableRow>
        )}
      />
      <iframe ref={frame} title={t('downloadFrame')} hidden data-testid="configfile-download-frame" />
      <ConfirmRemoval
        item={deleting}
        title={t('delete.title')}
        message={t('delete.message')}
        confirmLabel={tc('actions.remove')}
        cancelLabel={tc('actions.cancel')}
        remove={(file, options) => remove.mutate(file.dbconfigfileid, options)}
        removing={remove.isPending}
        removed={(file) => t('deleted', { name: file.name })}
        onClose={() => setDeleting(null)}
        testId="configfile-delete-dialog"
      />
    </>
  );
}

function ConfigFiles({ teamUuid }: { teamUuid: string }) {
  const { t } = useTranslation('configFiles');
  const files = useConfigFiles(teamUuid);
  const list = files.data ?? [];
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} icon={<DescriptionOutlinedIcon />} />
      <Card>
        <UploadArea teamUuid={teamUuid} files={list} />
        <Box sx={{ borderTop: 1, borderColor: 'divider' }}>
          <PhotographersHelp />
        </Box>
        <Box sx={{ borderTop: 1, borderColor: 'divider' }}>
          <FilesTable teamUuid={teamUuid} files={list} loading={files.isPending} />
        </Box>
      </Card>
    </>
  );
}

export function ConfigFilesPage() {
  const { t } = useTranslation('configFiles');
  useDocumentTitle(t('title'));
  const team = useCurrentTeam();
  return (
    <PageContainer>
      <OwnersAndOperatorsOnly>
        <ConfigFiles teamUuid={team.teamid} />
      </OwnersAndOperatorsOnly>
    </PageContainer>
  );
}
