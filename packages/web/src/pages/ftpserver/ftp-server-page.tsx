import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Chip, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { useFolderTree } from '../../api/folders.ts';
import { useFtpServer } from '../../api/ftpservers.ts';
import { ItemPath } from '../../ui/item-path.tsx';
import { NotFoundCard, PageContainer, PageHeader, PageSpinner } from '../../ui/page.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { findNode } from '../../ui/tree/tree-rules.ts';
import { ServerForm } from './server-form.tsx';

export function FtpServerPage() {
  const { t } = useTranslation('ftpServers');
  const team = useCurrentTeam();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const editing = Number.isSafeInteger(id) && id > 0;
  const server = useFtpServer(team.teamid, editing ? id : 0);
  const tree = useFolderTree(team.teamid);
  const roots = tree.data ?? [];
  const requested = Number(params.get('parentfolder'));
  // A new server goes into the folder it was created on, else the top of the FTP servers tree.
  const parent =
    findNode(roots, (node) => node.folderType === 'ftpservers' && node.id === requested) ??
    roots.find((node) => node.type === 'ftpservers' && node.isRoot) ??
    null;

  if ((editing && server.isPending) || (!editing && tree.isPending)) {
    return (
      <PageContainer maxWidth="md">
        <PageSpinner />
      </PageContainer>
    );
  }
  if (editing && (!server.data || (server.error && isApiError(server.error, 'NotFound')))) {
    return (
      <PageContainer maxWidth="md">
        <NotFoundCard testId="ftpserver-not-found" />
      </PageContainer>
    );
  }
  const data = editing ? (server.data ?? null) : null;
  const canWrite = data ? data.canWrite : (parent?.canWrite ?? false);
  return (
    <PageContainer maxWidth="md">
      <PageHeader
        title={data ? data.name : t('newTitle')}
        subtitle={
          data ? (
            <Stack direction="row" spacing={1} component="span" sx={{ alignItems: 'center' }}>
              <ItemPath teamUuid={team.teamid} nodeKey={`ftpserver-${data.id}`} />
              {!data.canWrite && (
                <Chip
                  component="span"
                  size="small"
                  variant="outlined"
                  icon={<LockOutlinedIcon />}
                  label={t('readOnly')}
                />
              )}
            </Stack>
          ) : (
            t('newSubtitle')
          )
        }
        icon={<DnsOutlinedIcon />}
      />
      <ServerForm
        key={data?.id ?? 'new'}
        server={data}
        parentFolderId={parent?.id ?? 0}
        canWrite={canWrite}
      />
    </PageContainer>
  );
}
