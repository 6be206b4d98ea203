// '/' for members (spec §2 reading A): summary of transfer jobs per project.
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import PhotoLibraryOutlinedIcon from '@mui/icons-material/PhotoLibraryOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import SpaceDashboardOutlinedIcon from '@mui/icons-material/SpaceDashboardOutlined';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import { Card, Chip, Grid, Skeleton, TableCell, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { type JobSummaryRow, useJobSummary } from '../../api/jobs.ts';
import { CardHeading } from '../../ui/card-heading.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { LastError, RetryingChip } from '../../ui/destination-health.tsx';
import { ItemLink } from '../../ui/item-link.tsx';
import { PageContainer, PageHeader, StatusPanel } from '../../ui/page.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { StatCard } from '../../ui/stat-card.tsx';
import { DiskFullBanner } from './disk-full-banner.tsx';
import { FirstSteps } from './first-steps.tsx';
import { LatestPictures } from './latest-pictures.tsx';

function SummaryTable({ rows, loading }: { rows: JobSummaryRow[]; loading: boolean }) {
  const { t, i18n } = useTranslation('dashboard');
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);
  return (
    <DataTable
      loading={loading}
      loadingLines={3}
      rows={rows}
      rowKey={(row) => `${row.projectid}-${row.ftpserver ?? ''}`}
      empty={
        <StatusPanel
          icon={<InboxOutlinedIcon />}
          title={t('summary.emptyTitle')}
          text={t('summary.emptyText')}
          testId="job-summary-empty"
        />
      }
      size="medium"
      testId="job-summary-table"
      ariaLabel={t('summary.title')}
      columns={[
        { label: t('summary.columns.project') },
        { label: t('summary.columns.ftpServer') },
        { label: t('summary.columns.jobCount'), align: 'right' },
        { label: t('summary.columns.failedJobCount'), align: 'right' },
      ]}
      renderRow={(row) => (
        <TableRow hover>
          <TableCell>
            <ItemLink to={`/project/overview?id=${row.projectid}`}>{row.project}</ItemLink>
          </TableCell>
          <TableCell sx={{ color: 'text.secondary' }}>
            {row.destination === 'project' ? (
              <Chip
                size="small"
                variant="outlined"
                icon={<AccountTreeOutlinedIcon />}
                label={t('summary.destinationProject', { name: row.ftpserver })}
                data-testid="summary-destination-project"
              />
            ) : (
              row.ftpserver || '–'
            )}
            <LastError row={row} />
          </TableCell>
          <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {number.format(row.jobcount)}
          </TableCell>
          <TableCell align="right">
            {/* Issue 15: pictures that could not be stamped, held back or delivered unstamped. */}
            {(row.heldjobcount ?? 0) > 0 && (
              <Chip
                size="small"
                color="warning"
                label={t('summary.held', { count: row.heldjobcount })}
                sx={{ mr: 0.5 }}
                data-testid="summary-held"
              />
            )}
            {(row.unstampedjobcount ?? 0) > 0 && (
              <Chip
                size="small"
                color="warning"
                variant="outlined"
                label={t('summary.unstamped', { count: row.unstampedjobcount })}
                sx={{ mr: 0.5 }}
                data-testid="summary-unstamped"
              />
            )}
            <RetryingChip row={row} />
            {row.failedjobcount > 0 ? (
              <Chip size="small" color="error" variant="outlined" label={number.format(row.failedjobcount)} />
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
      )}
    />
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
  const retrying = rows.reduce((sum, row) => sum + (row.retryingjobcount ?? 0), 0);
  const loadingValue = <Skeleton width={40} />;

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle', { team: team.name })}
        icon={<SpaceDashboardOutlinedIcon />}
      />
      <DiskFullBanner />
      <Grid container spacing={2.5} sx={{ mb: 3 }}>
        <Grid size={{ xs: 12, sm: 6, xl: 3 }}>
          <StatCard
            label={t('stats.projects')}
            value={summary.isPending ? loadingValue : number.format(projects)}
            icon={<PhotoLibraryOutlinedIcon />}
            tone="#1f4fb3"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, xl: 3 }}>
          <StatCard
            label={t('stats.jobs')}
            value={summary.isPending ? loadingValue : number.format(jobs)}
            icon={<SyncAltIcon />}
            tone="#0f766e"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, xl: 3 }}>
          <StatCard
            label={t('stats.retryingJobs')}
            value={summary.isPending ? loadingValue : number.format(retrying)}
            icon={<ReplayIcon />}
            tone={retrying > 0 ? '#b45309' : '#64748b'}
            testId="stat-retrying"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6, xl: 3 }}>
          <StatCard
            label={t('stats.failedJobs')}
            value={summary.isPending ? loadingValue : number.format(failed)}
            icon={<ErrorOutlineIcon />}
            tone={failed > 0 ? '#c62828' : '#64748b'}
            testId="stat-failed"
          />
        </Grid>
      </Grid>
      {summary.isSuccess && rows.length === 0 && <FirstSteps teamUuid={team.teamid} />}
      <LatestPictures teamUuid={team.teamid} />
      <Card>
        <CardHeading title={t('summary.title')} subtitle={t('summary.subtitle')} />
        <SummaryTable rows={rows} loading={summary.isPending} />
      </Card>
    </PageContainer>
  );
}
