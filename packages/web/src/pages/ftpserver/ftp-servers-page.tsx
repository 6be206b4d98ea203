// /team/ftpservers (spec §2): the team's destination FTP servers; each row opens its page.
import AddIcon from '@mui/icons-material/Add';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Button, Card, Chip, Stack, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFolderTree } from '../../api/folders.ts';
import { useFtpServerHealth, useFtpServers } from '../../api/ftpservers.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { ItemLink } from '../../ui/item-link.tsx';
import { PageContainer, PageHeader, StatusPanel } from '../../ui/page.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { HealthSummary } from './server-health.tsx';

const mono = { fontFamily: '"JetBrains Mono", "SFMono-Regular", Consolas, monospace', fontSize: '0.85rem' };

export function FtpServersPage() {
  const { t } = useTranslation('ftpServers');
  const team = useCurrentTeam();
  const navigate = useNavigate();
  const servers = useFtpServers(team.teamid);
  const { t: tl } = useTranslation('jobLog');
  const health = useFtpServerHealth(team.teamid);
  const tree = useFolderTree(team.teamid);
  const root = (tree.data ?? []).find((node) => node.type === 'ftpservers' && node.isRoot);
  const rows = [...(servers.data ?? [])].sort((a, b) =>
    a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
  );

  return (
    <PageContainer>
      <PageHeader
        title={t('listTitle')}
        subtitle={t('listSubtitle')}
        icon={<DnsOutlinedIcon />}
        actions={
          root?.canWrite && (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => navigate(`/newftpserver?parentfolder=${root.id}`)}
              data-testid="ftpservers-new"
            >
              {t('newTitle')}
            </Button>
          )
        }
      />
      <Card>
        <DataTable
          loading={servers.isPending}
          rows={rows}
          rowKey={(server) => server.id}
          empty={
            <StatusPanel
              icon={<DnsOutlinedIcon />}
              title={t('emptyTitle')}
              // Issue 27 item 6: who cannot add one is told whom to ask.
              text={root?.canWrite ? t('emptyText') : t('emptyTextMember', { team: team.name })}
              testId="ftpservers-empty"
            />
          }
          testId="ftpservers-table"
          ariaLabel={t('listTitle')}
          columns={[
            { label: t('fields.name') },
            // Second: what a desk looks for, visible without scrolling the table on a phone.
            { label: tl('destinationHealth.status') },
            { label: t('fields.host') },
            { label: t('fields.protocol') },
            { label: t('fields.path') },
          ]}
          renderRow={(server) => (
            <TableRow
              hover
              onClick={() => navigate(`/ftpserver?id=${server.id}`)}
              sx={{ cursor: 'pointer' }}
              data-testid={`ftpserver-row-${server.name}`}
            >
              <TableCell>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <ItemLink to={`/ftpserver?id=${server.id}`} onClick={(event) => event.stopPropagation()}>
                    {server.name}
                  </ItemLink>
                  {!server.canWrite && (
                    <Tooltip title={t('readOnly')}>
                      <LockOutlinedIcon fontSize="small" sx={{ color: 'text.disabled' }} />
                    </Tooltip>
                  )}
                </Stack>
              </TableCell>
              <TableCell sx={{ minWidth: 180, maxWidth: 360 }}>
                <HealthSummary health={health.data?.find((h) => h.ftpserverid === server.id)} />
              </TableCell>
              <TableCell sx={mono}>
                {server.host}
                {server.port !== null && (
                  <Typography component="span" color="text.secondary" sx={mono}>
                    :{server.port}
                  </Typography>
                )}
              </TableCell>
              <TableCell>
                <Chip
                  size="small"
                  variant="outlined"
                  label={server.protocol.toUpperCase()}
                  color={server.protocol === 'ftp' ? 'default' : 'success'}
                  icon={server.protocol === 'ftp' ? undefined : <LockOutlinedIcon />}
                />
              </TableCell>
              <TableCell sx={{ ...mono, color: 'text.secondary' }}>{server.path || '/'}</TableCell>
            </TableRow>
          )}
        />
      </Card>
    </PageContainer>
  );
}
