// Projects / Sports / Football: the full path of the current item, so that items of one name in
// different folders can be told apart (issue 16 item 8; the drawer is only 200 px wide).
import { Breadcrumbs, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useFolderTree } from '../api/folders.ts';
import { useNodeLabel } from './tree/node-label.ts';
import { ancestorKeys, findNode } from './tree/tree-rules.ts';

/** `nodeKey` is the tree key of the item: 'project-7', 'ftpserver-3', 'folder-12'. */
export function ItemPath({ teamUuid, nodeKey }: { teamUuid: string; nodeKey: string }) {
  const { t } = useTranslation('shell');
  const label = useNodeLabel();
  const tree = useFolderTree(teamUuid);
  const roots = tree.data ?? [];
  const keys = ancestorKeys(roots, (node) => node.key === nodeKey) ?? [];
  const folders = keys
    .map((key) => findNode(roots, (node) => node.key === key))
    .filter((node) => node !== null);
  const item = findNode(roots, (node) => node.key === nodeKey);
  if (!item) return null;
  return (
    <Breadcrumbs sx={{ fontSize: '0.85rem' }} aria-label={t('drawer.tree')} data-testid="item-path">
      {folders.map((folder) => (
        <Typography
          key={folder.key}
          component={RouterLink}
          to={`/folder?id=${folder.id}`}
          variant="body2"
          color="text.secondary"
          sx={{ textDecoration: 'none', '&:hover': { textDecoration: 'underline' } }}
        >
          {label(folder)}
        </Typography>
      ))}
      <Typography variant="body2" color="text.primary">
        {label(item)}
      </Typography>
    </Breadcrumbs>
  );
}
