// The drawer's folder tree (spec §2 'Folder tree'): the items (tree-item.tsx), which branches are
// open (kept for the browser session), the pending move, the context menu (tree-menu.tsx) and the
// delete confirmation; what the actions do lives in use-tree-actions.ts.
import CloseIcon from '@mui/icons-material/Close';
import DriveFileMoveOutlinedIcon from '@mui/icons-material/DriveFileMoveOutlined';
import { Alert, IconButton, List, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { FolderNode } from '../../api/folders.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { showsNode } from '../../ui/tree/node-route.ts';
import { ancestorKeys } from '../../ui/tree/tree-rules.ts';
import { TreeContext, TreeItem, type TreeState } from './tree-item.tsx';
import { TreeMenu } from './tree-menu.tsx';
import { useTreeActions } from './use-tree-actions.ts';

const expandedStorageKey = (teamUuid: string) => `photorelay.treeExpanded.${teamUuid}`;

function loadExpanded(teamUuid: string, roots: FolderNode[]): Set<string> {
  try {
    const stored = sessionStorage.getItem(expandedStorageKey(teamUuid));
    if (stored) return new Set(JSON.parse(stored) as string[]);
  } catch {
    // Without storage the tree starts with the roots open.
  }
  return new Set(roots.map((root) => root.key));
}

export function FolderTree({
  roots,
  teamUuid,
  onNavigate,
}: {
  roots: FolderNode[];
  teamUuid: string;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation('shell');
  const { t: tc } = useTranslation('common');
  const location = useLocation();

  const [expanded, setExpanded] = useState(() => loadExpanded(teamUuid, roots));

  useEffect(() => {
    try {
      sessionStorage.setItem(expandedStorageKey(teamUuid), JSON.stringify([...expanded]));
    } catch {
      // not remembered then
    }
  }, [expanded, teamUuid]);

  // Open the branch that holds the item shown on the page (e.g. after following a link).
  useEffect(() => {
    const path = ancestorKeys(roots, (node) => showsNode(node, location.pathname, location.search));
    if (!path?.length) return;
    setExpanded((current) =>
      path.every((key) => current.has(key)) ? current : new Set([...current, ...path]),
    );
  }, [roots, location.pathname, location.search]);

  const expand = (key: string) =>
    setExpanded((current) => (current.has(key) ? current : new Set([...current, key])));

  const actions = useTreeActions({ teamUuid, expand, onNavigate });
  const { pendingMove } = actions;
  const state: TreeState = {
    ...actions.itemState,
    expanded,
    toggle: (key) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
  };

  return (
    <TreeContext.Provider value={state}>
      {pendingMove && (
        <Alert
          severity="info"
          icon={<DriveFileMoveOutlinedIcon fontSize="small" />}
          data-testid="tree-move-pending"
          action={
            <IconButton size="small" aria-label={t('tree.menu.cancelMove')} onClick={actions.cancelMove}>
              <CloseIcon fontSize="small" />
            </IconButton>
          }
          sx={{ mx: 1, mb: 1, py: 0, fontSize: '0.8rem', '& .MuiAlert-message': { minWidth: 0 } }}
        >
          <Typography
            variant="body2"
            noWrap
            title={pendingMove.name}
            sx={{ fontWeight: 600, fontSize: '0.8rem' }}
          >
            {t('tree.movePending', { name: pendingMove.name })}
          </Typography>
          <Typography variant="caption" sx={{ display: 'block', lineHeight: 1.35 }}>
            {t('tree.moveHint')}
          </Typography>
        </Alert>
      )}
      <List disablePadding data-testid="folder-tree" sx={{ px: 1 }}>
        {roots.map((node) => (
          <TreeItem key={node.key} node={node} depth={0} />
        ))}
      </List>
      <TreeMenu
        menu={actions.menu}
        pendingMove={pendingMove}
        onRun={actions.run}
        onClose={actions.closeMenu}
      />
      <ConfirmDialog
        open={Boolean(actions.deleting)}
        title={t('tree.deleteTitle', { name: actions.deleting?.name ?? '' })}
        message={actions.deleteMessage}
        confirmLabel={tc('actions.delete')}
        cancelLabel={tc('actions.cancel')}
        busy={actions.deleteBusy}
        onConfirm={actions.confirmDelete}
        onClose={actions.cancelDelete}
        testId="tree-delete-dialog"
      />
    </TreeContext.Provider>
  );
}
