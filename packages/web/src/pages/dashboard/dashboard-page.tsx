// '/' for members (spec §2 reading A): summary of transfer jobs per project.
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import PhotoLibraryOutlinedIcon from '@mui/icons-material/PhotoLibraryOutlined';
import SpaceDashboardOutlinedIcon from '@mui/icons-material/SpaceDashboardOutlined';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import {
  Box,
  Card,
  CardContent,
  Chip,
  Grid,
  Link,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { type JobSummaryRow, useJobSummary } from '../../api/jobs.ts';
import { PageContainer, PageHeader, StatusPanel } from '../../app/page.tsx';
import { useCurrentTeam } from '../../app/session.ts';

function StatCard({
  label,
  value,
  icon,
  tone,
}: {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  tone: string;
}) {
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent sx={{ p: 2.5, '&:last-child': { pb: 2.5 } }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <Box
            sx={{
              width: 44,
              height: 44,
              borderRadius: 2,
              display: 'grid',
              placeItems: 'center',
              color: tone,
              bgcolor: `color-mix(in srgb, ${tone} 12%, transparent)`,
            }}
          >
            {icon}
          </Box>
          <Box>
            <Typography variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
              {value}
            </Typography>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}

function SummaryTable({ rows }: { rows: JobSummaryRow[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);
  return (
    <TableContainer>
      <Table size="medium" data-testid="job-summary-table" aria-label={t('summary.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('summary.columns.project')}</TableCell>
            <TableCell>{t('summary.columns.ftpServer')}</TableCell>
            <TableCell align="right">{t('summary.columns.jobCount')}</TableCell>
            <TableCell align="right">{t('summary.columns.failedJobCount')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={`${row.projectid}-${row.ftpserver ?? ''}`} hover>
              <TableCell>
                <Link
                  component={RouterLink}
                  to={`/project/overview?id=${row.projectid}`}
                  underline="hover"
                  sx={{ fontWeight: 500 }}
                >
                  {row.project}
                </Link>
              </TableCell>
              <TableCell sx={{ color: 'text.secondary' }}>{row.ftpserver || '–'}</TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {number.format(row.jobcount)}
              </TableCell>
              <TableCell align="right">
                {row.failedjobcount > 0 ? (
                  <Chip
                    size="small"
                    color="error"
                    variant="outlined"
                    label={number.format(row.failedjobcount)}
                  />
                ) : (
                  <Typography
                    component="span"
                    variant="body2"
                    color="text.secondary"
                    sx={{ fontVariantNumeric: 'tabular-nums' }}
                  >
                    0
                  </Typography>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function DashboardPage() {
  const { t, i18n } = useTranslation('dashboard');
  const team = useCurrentTeam();
  const summary = useJobSummary(team.teamid);
  const rows = summary.data ?? [];
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);
  const projects = new Set(rows.map((row) => row.projectid)).size;
  const jobs = rows.reduce((sum, row) => sum + row.jobcount, 0);
  const failed = rows.reduce((sum, row) => sum + row.failedjobcount, 0);
  const loadingValue = <Skeleton width={40} />;

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle', { team: team.name })}
        icon={<SpaceDashboardOutlinedIcon />}
      />
      <Grid container spacing={2.5} sx={{ mb: 3 }}>
        <Grid size={{ xs: 12, sm: 4 }}>
          <StatCard
            label={t('stats.projects')}
            value={summary.isPending ? loadingValue : number.format(projects)}
            icon={<PhotoLibraryOutlinedIcon />}
            tone="#1f4fb3"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <StatCard
            label={t('stats.jobs')}
            value={summary.isPending ? loadingValue : number.format(jobs)}
            icon={<SyncAltIcon />}
            tone="#0f766e"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <StatCard
            label={t('stats.failedJobs')}
            value={summary.isPending ? loadingValue : number.format(failed)}
            icon={<ErrorOutlineIcon />}
            tone={failed > 0 ? '#c62828' : '#64748b'}
          />
        </Grid>
      </Grid>
      <Card>
        <Box sx={{ px: 3, py: 2.25, borderBottom: 1, borderColor: 'divider' }}>
          <Typography variant="h6" component="h2">
            {t('summary.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('summary.subtitle')}
          </Typography>
        </Box>
        {summary.isPending ? (
          <Stack spacing={1.5} sx={{ p: 3 }}>
            <Skeleton height={28} />
            <Skeleton height={28} />
            <Skeleton height={28} />
          </Stack>
        ) : rows.length > 0 ? (
          <SummaryTable rows={rows} />
        ) : (
          <StatusPanel
            icon={<InboxOutlinedIcon />}
            title={t('summary.emptyTitle')}
            text={t('summary.emptyText')}
            testId="job-summary-empty"
          />
        )}
      </Card>
    </PageContainer>
  );
}
