// The project's overview (spec §2 'Project tabs: Overview'): files and bytes in and out, the FTP
// account a photographer types into the camera, traffic of the last hour, day or week, the connection log.
import CallMadeIcon from '@mui/icons-material/CallMade';
import CallReceivedIcon from '@mui/icons-material/CallReceived';
import CameraAltOutlinedIcon from '@mui/icons-material/CameraAltOutlined';
import ContentCopyOutlinedIcon from '@mui/icons-material/ContentCopyOutlined';
import SaveAltOutlinedIcon from '@mui/icons-material/SaveAltOutlined';
import UploadOutlinedIcon from '@mui/icons-material/UploadOutlined';
import VisibilityOffOutlinedIcon from '@mui/icons-material/VisibilityOffOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import {
  Box,
  Card,
  CardContent,
  Divider,
  Grid,
  IconButton,
  Skeleton,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { useSnackbar } from 'notistack';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Project } from '../../api/projects.ts';
import { copyText } from '../../ui/clipboard.ts';
import { FailingDestinations } from '../../ui/destination-health.tsx';
import { formatNumber, formatSize } from '../../ui/format.ts';
import { StatCard } from '../../ui/stat-card.tsx';
import { ConnectionLog } from './connection-log.tsx';
import { TestImageCard } from './metadata/test-image-preview.tsx';

// The charting library is large; it loads with the chart, after the rest of the page.
const TrafficChart = lazy(() =>
  import('./traffic-chart.tsx').then((module) => ({ default: module.TrafficChart })),
);

/** One line of the FTP account: label, value in a mono font, copy button (and reveal for secrets). */
function CopyField({
  label,
  value,
  secret = false,
  testId,
}: {
  label: string;
  value: string;
  secret?: boolean;
  testId: string;
}) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation('common');
  const { enqueueSnackbar } = useSnackbar();
  const [revealed, setRevealed] = useState(!secret);
  const copy = () =>
    copyText(value).then(
      () => enqueueSnackbar(tc('actions.copied'), { variant: 'success', preventDuplicate: false }),
      (error: Error) => enqueueSnackbar(error.message, { variant: 'error' }),
    );
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 0.75 }}>
      <Typography variant="body2" color="text.secondary" sx={{ width: 96, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box
        sx={{
          flex: 1,
          minWidth: 0,
          px: 1.25,
          py: 0.75,
          borderRadius: 1.5,
          bgcolor: '#f3f5f9',
          border: 1,
          borderColor: 'divider',
          fontFamily: '"JetBrains Mono", "SFMono-Regular", Consolas, monospace',
          fontSize: '0.9rem',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
        }}
        data-testid={testId}
        data-value={revealed ? value : undefined}
      >
        {revealed ? value : '•'.repeat(Math.min(Math.max(value.length, 8), 16))}
      </Box>
      {secret && (
        <Tooltip title={revealed ? t('overview.hide') : t('overview.show')}>
          <IconButton
            size="small"
            onClick={() => setRevealed((value) => !value)}
            data-testid={`${testId}-reveal`}
          >
            {revealed ? (
              <VisibilityOffOutlinedIcon fontSize="small" />
            ) : (
              <VisibilityOutlinedIcon fontSize="small" />
            )}
          </IconButton>
        </Tooltip>
      )}
      <Tooltip title={t('overview.copy', { what: label })}>
        <IconButton
          size="small"
          onClick={copy}
          data-testid={`${testId}-copy`}
          aria-label={t('overview.copy', { what: label })}
        >
          <ContentCopyOutlinedIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}

function PortChip({ label, port, testId }: { label: string; port: number | null; testId: string }) {
  const { t } = useTranslation('projects');
  return (
    <Box
      sx={{
        flex: 1,
        minWidth: 110,
        border: 1,
        borderColor: 'divider',
        borderRadius: 2,
        px: 1.5,
        py: 1,
        bgcolor: port === null ? 'transparent' : '#fbfcfe',
      }}
      data-testid={testId}
    >
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', fontWeight: 600 }}>
        {label}
      </Typography>
      <Typography
        sx={{
          fontFamily: '"JetBrains Mono", "SFMono-Regular", Consolas, monospace',
          fontWeight: 600,
          color: port === null ? 'text.disabled' : 'text.primary',
          fontSize: port === null ? '0.8rem' : '1.05rem',
        }}
      >
        {port === null ? t('overview.portOff') : port}
      </Typography>
    </Box>
  );
}

function FtpAccessCard({ project }: { project: Project }) {
  const { t } = useTranslation('projects');
  const { ingest } = project;
  return (
    <Card sx={{ height: '100%' }} data-testid="ftp-access">
      <CardContent sx={{ p: 2.5 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 0.5 }}>
          <CameraAltOutlinedIcon color="primary" />
          <Typography variant="h6" component="h2">
            {t('overview.ftpTitle')}
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t('overview.ftpText')}
        </Typography>
        <CopyField label={t('overview.host')} value={ingest.host} testId="ftp-host" />
        {project.ftpAccounts.map((account, index) => (
          <Box key={account.username}>
            {index > 0 && <Divider sx={{ my: 1 }} />}
            <CopyField label={t('overview.user')} value={account.username} testId="ftp-user" />
            <CopyField label={t('overview.password')} value={account.password} secret testId="ftp-password" />
          </Box>
        ))}
        <Typography variant="subtitle2" color="text.secondary" sx={{ mt: 2, mb: 1 }}>
          {t('overview.ports')}
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <PortChip label={t('overview.ftpPort')} port={ingest.ftpPort} testId="port-ftp" />
          <PortChip label={t('overview.ftpsPort')} port={ingest.ftpsImplicitPort} testId="port-ftps" />
          <PortChip label={t('overview.sftpPort')} port={ingest.sftpPort} testId="port-sftp" />
        </Stack>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1.5 }}>
          {t('overview.portsHint')}
        </Typography>
      </CardContent>
    </Card>
  );
}

export function OverviewTab({ project, teamUuid }: { project: Project; teamUuid: string }) {
  const { t, i18n } = useTranslation('projects');
  const language = i18n.resolvedLanguage ?? 'en';
  return (
    <Grid container spacing={2.5}>
      <Grid size={12} sx={{ '&:empty': { display: 'none' } }}>
        <FailingDestinations teamUuid={teamUuid} projectId={project.id} />
      </Grid>
      <Grid size={{ xs: 6, md: 3 }}>
        <StatCard
          dense
          label={t('overview.filesIn')}
          value={formatNumber(project.fileincount, language)}
          icon={<CallReceivedIcon />}
          tone="#1f4fb3"
          testId="stat-files-in"
        />
      </Grid>
      <Grid size={{ xs: 6, md: 3 }}>
        <StatCard
          dense
          label={t('overview.bytesIn')}
          value={formatSize(project.bytesreceived, language)}
          icon={<SaveAltOutlinedIcon />}
          tone="#1f4fb3"
          testId="stat-bytes-in"
        />
      </Grid>
      <Grid size={{ xs: 6, md: 3 }}>
        <StatCard
          dense
          label={t('overview.filesOut')}
          value={formatNumber(project.fileoutcount, language)}
          icon={<CallMadeIcon />}
          tone="#b45309"
          testId="stat-files-out"
        />
      </Grid>
      <Grid size={{ xs: 6, md: 3 }}>
        <StatCard
          dense
          label={t('overview.bytesOut')}
          value={formatSize(project.bytessent, language)}
          icon={<UploadOutlinedIcon />}
          tone="#b45309"
          testId="stat-bytes-out"
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 5 }}>
        <FtpAccessCard project={project} />
      </Grid>
      <Grid size={{ xs: 12, lg: 7 }}>
        <Suspense fallback={<Skeleton variant="rounded" height={360} />}>
          <TrafficChart teamUuid={teamUuid} projectId={project.id} />
        </Suspense>
      </Grid>
      <Grid size={{ xs: 12, lg: 5 }}>
        <TestImageCard teamUuid={teamUuid} projectId={project.id} />
      </Grid>
      <Grid size={12}>
        <ConnectionLog teamUuid={teamUuid} projectId={project.id} />
      </Grid>
    </Grid>
  );
}
