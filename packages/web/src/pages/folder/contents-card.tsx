// The folder page's list of what the folder holds, each item linking to its page.
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import DnsOutlinedIcon from '@mui/icons-material/DnsOutlined';
import FolderOffOutlinedIcon from '@mui/icons-material/FolderOffOutlined';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import { Card, List, ListItem, ListItemButton, ListItemIcon, ListItemText } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { FolderNode } from '../../api/folders.ts';
import { CardHeading } from '../../ui/card-heading.tsx';
import { StatusPanel } from '../../ui/page.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { nodeRoute } from '../../ui/tree/node-route.ts';

const itemIcons: Record<string, ReactNode> = {
  project: <AccountTreeOutlinedIcon fontSize="small" />,
  ftpserver: <DnsOutlinedIcon fontSize="small" />,
};

export function ContentsCard({ folder }: { folder: FolderNode }) {
  const { t } = useTranslation('folders');
  const { t: tshell } = useTranslation('shell');
  const team = useCurrentTeam();
  return (
    <Card sx={{ height: '100%' }}>
      <CardHeading
        icon={<FolderOutlinedIcon color="primary" />}
        title={t('contents.title')}
        subtitle={t('contents.count', { count: folder.children.length })}
      />
      {folder.children.length === 0 ? (
        <StatusPanel
          icon={<FolderOffOutlinedIcon />}
          title={t('contents.empty')}
          text={folder.canWrite ? t('contents.emptyWrite') : t('contents.emptyRead', { team: team.name })}
          testId="folder-contents-empty"
        />
      ) : (
        <List dense sx={{ px: 1, py: 1 }} data-testid="folder-contents">
          {folder.children.map((child) => {
            const route = nodeRoute(child);
            const label =
              child.type === 'users' || child.type === 'configfiles'
                ? tshell(`tree.labels.${child.type}`)
                : child.name;
            return (
              // A list holds items; the link sits inside one (axe 'list').
              <ListItem key={child.key} disablePadding>
                <ListItemButton component={RouterLink} to={route ?? '#'} sx={{ borderRadius: 1 }}>
                  <ListItemIcon sx={{ minWidth: 34, color: 'text.secondary' }}>
                    {itemIcons[child.type] ?? <FolderOutlinedIcon fontSize="small" />}
                  </ListItemIcon>
                  <ListItemText primary={label} slotProps={{ primary: { noWrap: true } }} />
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
      )}
    </Card>
  );
}
