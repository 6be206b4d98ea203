import AdminPanelSettingsOutlinedIcon from '@mui/icons-material/AdminPanelSettingsOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import FolderOffOutlinedIcon from '@mui/icons-material/FolderOffOutlined';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined';
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import PersonAddAltOutlinedIcon from '@mui/icons-material/PersonAddAltOutlined';
import PersonOutlineIcon from '@mui/icons-material/PersonOutlined';
import {
  Button,
  Card,
  Chip,
  Grid,
  IconButton,
  Stack,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { type FolderNode, type PermissionSubject, useFolder, useSetPermission } from '../../api/folders.ts';
import { useGroups, useMembers } from '../../api/teams.ts';
import { CardHeading } from '../../ui/card-heading.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { useGroupLabel } from '../../ui/group-label.ts';
import { ItemPath } from '../../ui/item-path.tsx';
import { NotFoundCard, PageContainer, PageHeader, PageSpinner, StatusPanel } from '../../ui/page.tsx';
import { RemoveButton } from '../../ui/remove-button.tsx';
import { ScriptPanel } from '../../ui/script-panel.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { ContentsCard } from './contents-card.tsx';
import { FolderCreateButtons } from './create-buttons.tsx';
import { type Choice, PermissionDialog } from './permission-dialog.tsx';
import { addableGroups, addableUsers, type Level, levelOf, permissionsOf } from './permission-levels.ts';

type Entry = { subject: PermissionSubject; label: string; level: Level | null };
type DialogState =
  | { kind: 'add'; subject: 'user' | 'group' }
  | { kind: 'edit'; entry: Entry }
  | { kind: 'remove'; entry: Entry }
  | null;

const levelColors: Record<Level, 'default' | 'primary' | 'secondary'> = {
  read: 'default',
  readWrite: 'primary',
  admin: 'secondary',
};

function PermissionTable({
  entries,
  firstColumn,
  empty,
  testId,
  onEdit,
  onRemove,
}: {
  entries: Entry[];
  firstColumn: string;
  empty: string;
  testId: string;
  onEdit: (entry: Entry) => void;
  onRemove: (entry: Entry) => void;
}) {
  const { t } = useTranslation('folders');
  const { t: tc } = useTranslation('common');
  return (
    <DataTable
      rows={entries}
      rowKey={(entry) => `${entry.subject.kind}-${entry.subject.id}`}
      empty={
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ px: 2.5, py: 3 }}
          data-testid={`${testId}-empty`}
        >
          {empty}
        </Typography>
      }
      size="small"
      testId={testId}
      columns={[
        { label: firstColumn },
        { label: t('columns.permissions') },
        { label: t('columns.edit'), align: 'right', width: 56 },
        { label: t('columns.delete'), align: 'right', width: 56 },
      ]}
      renderRow={(entry) => (
        <TableRow hover data-testid={`${testId}-row`}>
          <TableCell sx={{ fontWeight: 500, maxWidth: 280, overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {entry.label}
          </TableCell>
          <TableCell>
            {entry.level && (
              <Chip
                size="small"
                variant={entry.level === 'read' ? 'outlined' : 'filled'}
                color={levelColors[entry.level]}
                label={t(`levelsShort.${entry.level}`)}
                data-testid="permission-level"
              />
            )}
          </TableCell>
          <TableCell align="right">
            <Tooltip title={tc('actions.edit')}>
              <IconButton size="small" onClick={() => onEdit(entry)} data-testid="permission-edit">
                <EditOutlinedIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </TableCell>
          <TableCell align="right">
            <RemoveButton
              label={tc('actions.remove')}
              onClick={() => onRemove(entry)}
              testId="permission-remove"
            />
          </TableCell>
        </TableRow>
      )}
    />
  );
}

function PermissionsSection({ folder, teamUuid }: { folder: FolderNode; teamUuid: string }) {
  const { t } = useTranslation('folders');
  const { t: tc } = useTranslation('common');
  const { enqueueSnackbar } = useSnackbar();
  const groupLabel = useGroupLabel();
  const [dialog, setDialog] = useState<DialogState>(null);
  const setPermission = useSetPermission(teamUuid, folder.id);
  // Spec §6, §8: MissingPermission while listing users or groups leaves the lists empty.
  const members = useMembers(teamUuid, { ignoreMissingPermission: true });
  const groups = useGroups(teamUuid, { ignoreMissingPermission: true });

  const userEntries: Entry[] = folder.permissions.users.map((entry) => ({
    subject: { kind: 'user', id: entry.dbuserid },
    label: entry.email,
    level: levelOf(entry.permissions),
  }));
  const groupEntries: Entry[] = folder.permissions.groups.map((entry) => ({
    subject: { kind: 'group', id: entry.dbgroupid },
    label: groupLabel(entry),
    level: levelOf(entry.permissions),
  }));

  const userChoices: Choice[] = addableUsers(members.data ?? [], folder.permissions.users).map((member) => ({
    id: member.dbuserid,
    label: member.email,
    detail: member.fullname,
  }));
  const groupChoices: Choice[] = addableGroups(groups.data ?? [], folder.permissions.groups).map((group) => ({
    id: group.dbgroupid,
    label: groupLabel(group),
  }));

  const save = (subject: PermissionSubject, level: Level | null, message: string) =>
    setPermission.mutate(
      { subject, permissions: level ? permissionsOf(level) : [] },
      {
        onSuccess: () => {
          enqueueSnackbar(message, { variant: 'success' });
          setDialog(null);
        },
      },
    );

  return (
    <>
      <Grid size={{ xs: 12, lg: 6 }}>
        <Card sx={{ height: '100%' }}>
          <CardHeading
            icon={<PersonOutlineIcon color="primary" />}
            title={t('users.title')}
            subtitle={t('users.text')}
            actions={
              <Button
                size="small"
                variant="outlined"
                startIcon={<PersonAddAltOutlinedIcon />}
                onClick={() => setDialog({ kind: 'add', subject: 'user' })}
                data-testid="folder-add-user"
              >
                {t('users.add')}
              </Button>
            }
          />
          <PermissionTable
            entries={userEntries}
            firstColumn={t('columns.email')}
            empty={t('users.empty')}
            testId="folder-user-permissions"
            onEdit={(entry) => setDialog({ kind: 'edit', entry })}
            onRemove={(entry) => setDialog({ kind: 'remove', entry })}
          />
        </Card>
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <Card sx={{ height: '100%' }}>
          <CardHeading
            icon={<GroupsOutlinedIcon color="primary" />}
            title={t('groups.title')}
            subtitle={t('groups.text')}
            actions={
              <Button
                size="small"
                variant="outlined"
                startIcon={<GroupAddOutlinedIcon />}
                onClick={() => setDialog({ kind: 'add', subject: 'group' })}
                data-testid="folder-add-group"
              >
                {t('groups.add')}
              </Button>
            }
          />
          <PermissionTable
            entries={groupEntries}
            firstColumn={t('columns.group')}
            empty={t('groups.empty')}
            testId="folder-group-permissions"
            onEdit={(entry) => setDialog({ kind: 'edit', entry })}
            onRemove={(entry) => setDialog({ kind: 'remove', entry })}
          />
        </Card>
      </Grid>
      {dialog?.kind === 'add' && (
        <PermissionDialog
          subject={dialog.subject}
          mode={{
            kind: 'add',
            choices: dialog.subject === 'user' ? userChoices : groupChoices,
            loading: dialog.subject === 'user' ? members.isPending : groups.isPending,
          }}
          busy={setPermission.isPending}
          onClose={() => setDialog(null)}
          onSave={(id, level) => save({ kind: dialog.subject, id }, level, t('saved'))}
        />
      )}
      {dialog?.kind === 'edit' && (
        <PermissionDialog
          subject={dialog.entry.subject.kind}
          mode={{
            kind: 'edit',
            target: { id: dialog.entry.subject.id, label: dialog.entry.label },
            level: dialog.entry.level ?? 'read',
          }}
          busy={setPermission.isPending}
          onClose={() => setDialog(null)}
          onSave={(_id, level) => save(dialog.entry.subject, level, t('saved'))}
        />
      )}
      <ConfirmDialog
        open={dialog?.kind === 'remove'}
        title={t('remove.title')}
        message={dialog?.kind === 'remove' ? t('remove.message', { name: dialog.entry.label }) : ''}
        confirmLabel={tc('actions.remove')}
        cancelLabel={tc('actions.cancel')}
        busy={setPermission.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() => dialog?.kind === 'remove' && save(dialog.entry.subject, null, t('removed'))}
        testId="permission-remove-dialog"
      />
    </>
  );
}

export function FolderPage() {
  const { t } = useTranslation('folders');
  const { t: tshell } = useTranslation('shell');
  const team = useCurrentTeam();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const folder = useFolder(team.teamid, Number.isSafeInteger(id) ? id : 0);

  if (folder.isPending && id > 0) {
    return (
      <PageContainer>
        <PageSpinner />
      </PageContainer>
    );
  }
  const node = folder.data;
  if (!node || (folder.error && isApiError(folder.error, 'NotFound'))) {
    return (
      <PageContainer>
        <NotFoundCard icon={<FolderOffOutlinedIcon />} testId="folder-not-found" />
      </PageContainer>
    );
  }

  const rootLabel = node.folderType ? tshell(`tree.labels.${node.folderType}`) : '';
  const title = node.isRoot ? rootLabel : node.name;
  return (
    <PageContainer>
      <PageHeader
        title={title}
        subtitle={
          <Stack direction="row" spacing={1} component="span" sx={{ alignItems: 'center' }}>
            {node.isRoot ? (
              <span>{t('subtitleRoot')}</span>
            ) : (
              <ItemPath teamUuid={team.teamid} nodeKey={node.key} />
            )}
            {node.isFolderAdmin && (
              <Chip
                component="span"
                size="small"
                icon={<AdminPanelSettingsOutlinedIcon />}
                label={t('levelsShort.admin')}
                variant="outlined"
                color="secondary"
              />
            )}
          </Stack>
        }
        icon={<FolderOutlinedIcon />}
        actions={<FolderCreateButtons folder={node} teamUuid={team.teamid} />}
      />
      <Grid container spacing={3}>
        {node.isFolderAdmin ? (
          <PermissionsSection folder={node} teamUuid={team.teamid} />
        ) : (
          <Grid size={12}>
            <Card>
              <StatusPanel
                icon={<AdminPanelSettingsOutlinedIcon />}
                title={t('notAdmin.title')}
                text={t('notAdmin.text')}
                testId="folder-not-admin"
              />
            </Card>
          </Grid>
        )}
        {node.folderType === 'projects' && (
          <Grid size={12}>
            <ScriptPanel
              teamUuid={team.teamid}
              owner={{ kind: 'folder', id: node.id }}
              canWrite={node.canWrite}
            />
          </Grid>
        )}
        <Grid size={12}>
          <ContentsCard folder={node} />
        </Grid>
      </Grid>
    </PageContainer>
  );
}
