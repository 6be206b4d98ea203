import DeleteOutlineOutlinedIcon from '@mui/icons-material/DeleteOutlineOutlined';
import NetworkCheckOutlinedIcon from '@mui/icons-material/NetworkCheckOutlined';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import {
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Divider,
  Grid,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { ftpProtocols, limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  type FtpServer,
  useCreateFtpServer,
  useDeleteFtpServer,
  useFtpServerHealth,
  useSaveFtpServer,
  useTestFtpServer,
} from '../../api/ftpservers.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { describeError } from '../../ui/report-error.ts';
import { useCurrentTeam } from '../../ui/session.ts';
import { useSchemaForm } from '../../ui/use-schema-form.ts';
import {
  defaultPort,
  emptyForm,
  type FtpServerForm,
  formOf,
  ftpServerFormSchema,
  passwordAgainFor,
  toBody,
  toTestBody,
} from './ftp-server-form.ts';
import { mono, Section, type TestResult, TestResultPanel } from './ftp-server-sections.tsx';
import { HealthSummary } from './server-health.tsx';

const listPath = '/team/ftpservers';
/** The FTP server's fields, its Test and Save (the page around it loads the server and its folder). */
export function ServerForm({
  server,
  parentFolderId,
  canWrite,
}: {
  server: FtpServer | null;
  parentFolderId: number;
  canWrite: boolean;
}) {
  const { t } = useTranslation('ftpServers');
  const { t: tc } = useTranslation('common');
  const { enqueueSnackbar } = useSnackbar();
  const navigate = useNavigate();
  const team = useCurrentTeam();
  const create = useCreateFtpServer(team.teamid);
  const save = useSaveFtpServer(team.teamid);
  const remove = useDeleteFtpServer(team.teamid);
  const { t: tl } = useTranslation('jobLog');
  const healthList = useFtpServerHealth(team.teamid);
  const health = server ? healthList.data?.find((h) => h.ftpserverid === server.id) : undefined;
  const test = useTestFtpServer(team.teamid);
  const [result, setResult] = useState<TestResult | null>(null);
  const [deleting, setDeleting] = useState(false);
  const passwordSet = server?.passwordSet ?? false;
  const [stored] = useState<FtpServerForm | null>(() => (server ? formOf(server) : null));
  const [schema] = useState(() => ftpServerFormSchema({ passwordSet, stored }));
  const { form: rhf, input, field } = useSchemaForm(schema, stored ?? emptyForm);
  const form = useWatch({ control: rhf.control }) as FtpServerForm;
  const { errors, isValid } = rhf.formState;
  const passwordAgain = passwordAgainFor(form, { passwordSet, stored });
  const saving = create.isPending || save.isPending;

  // Host, port, protocol and user name check the password again (deps): a stored one is kept while they stay.
  const password = field('password');

  const runTest = () => {
    setResult(null);
    test.mutate(toTestBody(rhf.getValues(), server?.id), {
      onSuccess: () => setResult({ ok: true }),
      // Spec §8: the server's text in a warning.
      onError: (error) => setResult({ ok: false, text: describeError(error) }),
    });
  };

  // Issue 28: saving right after a failed Test asks first (the deliveries would fail the same way).
  const [confirmSave, setConfirmSave] = useState(false);
  const submit = rhf.handleSubmit((values) => {
    if (!canWrite) return;
    if (result && !result.ok && !confirmSave) {
      setConfirmSave(true);
      return;
    }
    setConfirmSave(false);
    const done = () => {
      enqueueSnackbar(t('saved', { name: values.name.trim() }), { variant: 'success' });
      navigate(listPath);
    };
    if (server) save.mutate({ id: server.id, body: toBody(values) }, { onSuccess: done });
    else create.mutate(toBody(values, parentFolderId), { onSuccess: done });
  });

  return (
    <Card>
      <CardContent sx={{ px: { xs: 2.5, sm: 4 }, py: { xs: 1, sm: 1.5 } }}>
        <Box component="form" onSubmit={submit} noValidate data-testid="ftpserver-form">
          {server && health && (
            <Section title={tl('destinationHealth.title')} text="">
              <HealthSummary health={health} />
            </Section>
          )}
          <Section title={t('sections.general')} text={t('sections.generalText')}>
            <TextField
              label={t('fields.name')}
              required
              {...field('name')}
              disabled={!canWrite}
              slotProps={{ htmlInput: { maxLength: limits.ftpServerName, 'data-testid': 'ftpserver-name' } }}
            />
          </Section>
          <Divider />
          <Section title={t('sections.connection')} text={t('sections.connectionText')}>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 5 }}>
                <Controller
                  control={rhf.control}
                  name="protocol"
                  rules={{ deps: ['password'] }}
                  render={({ field: protocolField }) => (
                    <TextField
                      select
                      label={t('fields.protocol')}
                      value={protocolField.value}
                      onChange={(event) => protocolField.onChange(event.target.value)}
                      onBlur={protocolField.onBlur}
                      disabled={!canWrite}
                      helperText=" "
                      slotProps={{ htmlInput: { 'data-testid': 'ftpserver-protocol' } }}
                      data-testid="ftpserver-protocol-select"
                    >
                      {ftpProtocols.map((protocol) => (
                        <MenuItem key={protocol} value={protocol} data-testid={`protocol-${protocol}`}>
                          {t(`protocols.${protocol}`)}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 7 }}>
                <TextField
                  label={t('fields.host')}
                  required
                  {...field('host', ['password'])}
                  disabled={!canWrite}
                  placeholder="ftp.example.com"
                  slotProps={{
                    htmlInput: {
                      maxLength: limits.ftpServerField,
                      'data-testid': 'ftpserver-host',
                      style: mono,
                    },
                  }}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 5 }}>
                <TextField
                  label={t('fields.port')}
                  {...input('port', ['password'])}
                  disabled={!canWrite}
                  error={Boolean(errors.port)}
                  helperText={
                    errors.port ? t('portInvalid') : t('portHint', { port: defaultPort(form.protocol) })
                  }
                  placeholder={String(defaultPort(form.protocol))}
                  slotProps={{
                    htmlInput: {
                      inputMode: 'numeric',
                      maxLength: limits.ftpServerField,
                      'data-testid': 'ftpserver-port',
                      style: mono,
                    },
                  }}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 7 }}>
                <TextField
                  label={t('fields.path')}
                  {...input('path')}
                  disabled={!canWrite}
                  helperText={t('pathHint')}
                  placeholder="/incoming/photos"
                  slotProps={{
                    htmlInput: {
                      maxLength: limits.ftpServerField,
                      'data-testid': 'ftpserver-path',
                      style: mono,
                    },
                  }}
                />
              </Grid>
            </Grid>
          </Section>
          <Divider />
          <Section title={t('sections.login')} text={t('sections.loginText')}>
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField
                  label={t('fields.username')}
                  required
                  {...field('username', ['password'])}
                  disabled={!canWrite}
                  autoComplete="off"
                  slotProps={{
                    htmlInput: { maxLength: limits.ftpServerField, 'data-testid': 'ftpserver-username' },
                  }}
                />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField
                  type="password"
                  label={t('fields.password')}
                  required={!passwordSet}
                  {...password}
                  disabled={!canWrite}
                  autoComplete="new-password"
                  placeholder={passwordSet && !passwordAgain ? t('passwordSet') : undefined}
                  error={password.error || (passwordAgain && !form.password)}
                  helperText={
                    passwordAgain
                      ? t('passwordAgain')
                      : password.error
                        ? password.helperText
                        : passwordSet
                          ? t('passwordKeep')
                          : ' '
                  }
                  slotProps={{
                    htmlInput: { maxLength: limits.ftpServerField, 'data-testid': 'ftpserver-password' },
                    inputLabel: passwordSet && !passwordAgain ? { shrink: true } : undefined,
                  }}
                />
              </Grid>
            </Grid>
          </Section>
          <Divider />
          <Section title={t('sections.transfer')} text={t('sections.transferText')}>
            <TextField
              label={t('fields.maxConnections')}
              {...input('maxConnections')}
              disabled={!canWrite}
              error={Boolean(errors.maxConnections)}
              helperText={errors.maxConnections ? t('maxConnectionsInvalid') : t('maxConnectionsHint')}
              sx={{ maxWidth: 220 }}
              slotProps={{
                htmlInput: { inputMode: 'numeric', maxLength: 2, 'data-testid': 'ftpserver-maxconnections' },
              }}
            />
          </Section>
          <TestResultPanel
            busy={test.isPending}
            host={form.host.trim()}
            result={result}
            onClose={() => setResult(null)}
          />
          <Divider />
          <Stack
            direction={{ xs: 'column-reverse', sm: 'row' }}
            spacing={1.5}
            sx={{ py: 2.5, alignItems: { sm: 'center' } }}
          >
            {server && canWrite && (
              <Button
                color="error"
                variant="outlined"
                startIcon={<DeleteOutlineOutlinedIcon />}
                onClick={() => setDeleting(true)}
                data-testid="ftpserver-delete"
              >
                {tc('actions.delete')}
              </Button>
            )}
            <Box sx={{ flex: 1 }} />
            <Button onClick={() => navigate(listPath)} disabled={saving}>
              {tc('actions.cancel')}
            </Button>
            <Button
              variant="outlined"
              startIcon={test.isPending ? <CircularProgress size={16} /> : <NetworkCheckOutlinedIcon />}
              onClick={runTest}
              disabled={!isValid || test.isPending}
              data-testid="ftpserver-test"
            >
              {t('test')}
            </Button>
            <Button
              type="submit"
              variant="contained"
              startIcon={saving ? <CircularProgress size={16} color="inherit" /> : <SaveOutlinedIcon />}
              disabled={!isValid || !canWrite || saving}
              data-testid="ftpserver-save"
            >
              {t('save')}
            </Button>
          </Stack>
        </Box>
      </CardContent>
      <ConfirmDialog
        open={confirmSave}
        title={tl('saveAfterFailedTest.title')}
        message={tl('saveAfterFailedTest.text', {
          error: result && !result.ok ? result.text.replace(/\.$/, '') : '',
        })}
        confirmLabel={t('save')}
        cancelLabel={tc('actions.cancel')}
        busy={save.isPending || create.isPending}
        onClose={() => setConfirmSave(false)}
        onConfirm={() => void submit()}
        testId="ftpserver-save-failed-test"
      />
      {server && (
        <ConfirmDialog
          open={deleting}
          title={t('deleteTitle')}
          message={[
            tl('destinationHealth.deleteNamed', { name: server.name }),
            health && health.projects.length > 0
              ? tl('destinationHealth.deleteUsedBy', {
                  count: health.projects.length,
                  projects: health.projects.join(', '),
                })
              : tl('destinationHealth.deleteUnused'),
            health && health.waiting > 0
              ? tl('destinationHealth.deleteWaiting', { count: health.waiting })
              : '',
          ]
            .filter(Boolean)
            .join(' ')}
          confirmLabel={tc('actions.delete')}
          cancelLabel={tc('actions.cancel')}
          busy={remove.isPending}
          onClose={() => setDeleting(false)}
          onConfirm={() =>
            remove.mutate(server.id, {
              onSuccess: () => {
                enqueueSnackbar(t('deleted', { name: server.name }), { variant: 'success' });
                navigate(listPath);
              },
            })
          }
          testId="ftpserver-delete-dialog"
        />
      )}
    </Card>
  );
}
