// /users (spec §2 'User management page'): the team's members with their group and accreditation
// number; invite, edit, remove, and in debug mode force-accept pending invitations.
import BadgeOutlinedIcon from '@mui/icons-material/BadgeOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import GroupOffOutlinedIcon from '@mui/icons-material/GroupOffOutlined';
import HowToRegOutlinedIcon from '@mui/icons-material/HowToRegOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutlined';
import PersonAddAltOutlinedIcon from '@mui/icons-material/PersonAddAltOutlined';
import PersonRemoveOutlinedIcon from '@mui/icons-material/PersonRemoveOutlined';
import {
  Avatar,
  Button,
  Card,
  Chip,
  IconButton,
  Stack,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebugSettings } from '../../api/settings.ts';
import { type TeamMember, useMembers, useRemoveMember } from '../../api/teams.ts';
import { ConfirmRemoval } from '../../ui/confirm-dialog.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { useDebugMode } from '../../ui/debug-mode.ts';
import { useGroupLabel } from '../../ui/group-label.ts';
import { OwnersAndOperatorsOnly } from '../../ui/owners-and-operators-only.tsx';
import { PageContainer, PageHeader, StatusPanel, useDocumentTitle } from '../../ui/page.tsx';
import { RemoveButton } from '../../ui/remove-button.tsx';
import { initialsOf, useCurrentTeam } from '../../ui/session.ts';
import { AcceptInvitationDialog } from './accept-invitation-dialog.tsx';
import { EditUserDialog } from './edit-user-dialog.tsx';
import { InviteUserDialog } from './invite-user-dialog.tsx';

function MemberRow({
  member,
  canForceAccept,
  onEdit,
  onRemove,
  onAccept,
}: {
  member: TeamMember;
  canForceAccept: boolean;
  onEdit: () => void;
  onRemove: () => void;
  onAccept: () => void;
}) {
  const { t } = useTranslation('users');
  const groupLabel = useGroupLabel();
  const pending = !member.email_verified;
  const group = member.groups[0];
  return (
    <TableRow hover data-testid={`user-row-${member.email}`}>
      <TableCell>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Avatar
            sx={{
              width: 32,
              height: 32,
              fontSize: '0.8rem',
              fontWeight: 600,
              bgcolor: pending ? 'grey.300' : 'rgba(31,79,179,0.12)',
              color: pending ? 'text.secondary' : 'primary.dark',
            }}
          >
            {pending ? '?' : initialsOf(member.firstname, member.lastname) || '?'}
          </Avatar>
          <Typography variant="body2" noWrap sx={{ fontWeight: 500 }}>
            {member.email}
          </Typography>
        </Stack>
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
          {pending ? (
            <Chip
              size="small"
              variant="outlined"
              color="warning"
              label={t('invitationPending')}
              data-testid="user-invitation-pending"
            />
          ) : (
            <Typography variant="body2">{member.fullname}</Typography>
          )}
          {member.accreditation_number && (
            <Tooltip title={t('edit.accreditationNumber')}>
              <Chip
                size="small"
                icon={<BadgeOutlinedIcon />}
                label={member.accreditation_number}
                data-testid="user-accreditation"
                sx={{
                  bgcolor: 'rgba(245,158,11,0.14)',
                  color: '#8a4b06',
                  '& .MuiChip-icon': { color: 'inherit' },
                }}
              />
            </Tooltip>
          )}
        </Stack>
      </TableCell>
      <TableCell data-testid="user-group">
        {group ? (
          <Chip
            size="small"
            label={groupLabel(group)}
            color={group.name === 'Owner' ? 'primary' : 'default'}
            variant={group.name === 'Owner' ? 'filled' : 'outlined'}
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('noGroup')}
          </Typography>
        )}
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {canForceAccept && pending && (
          <Tooltip title={t('accept.action')}>
            <IconButton size="small" onClick={onAccept} data-testid="user-accept">
              <HowToRegOutlinedIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        <Tooltip title={t('edit.title')}>
          <IconButton size="small" onClick={onEdit} data-testid="user-edit">
            <EditOutlinedIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        {!member.isOwner && (
          <RemoveButton
            label={t('remove.title')}
            onClick={onRemove}
            testId="user-remove"
            icon={<PersonRemoveOutlinedIcon fontSize="small" />}
          />
        )}
      </TableCell>
    </TableRow>
  );
}

function UsersTable({ teamUuid }: { teamUuid: string }) {
  const { t } = useTranslation('users');
  const members = useMembers(teamUuid);
  const remove = useRemoveMember(teamUuid);
  const debug = useDebugMode();
  // Asked only in debug mode: the switch is not public.
  const settings = useDebugSettings(debug);
  const canForceAccept = debug && Boolean(settings.data?.debugAdmin);
  const [editing, setEditing] = useState<TeamMember | null>(null);
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const [accepting, setAccepting] = useState<TeamMember | null>(null);
  const [inviting, setInviting] = useState(false);
  const rows = members.data ?? [];

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        icon={<PeopleOutlineIcon />}
        actions={
          <Button
            variant="contained"
            startIcon={<PersonAddAltOutlinedIcon />}
            onClick={() => setInviting(true)}
            data-testid="users-add"
          >
            {t('addUser')}
          </Button>
        }
      />
      <Card>
        <DataTable
          loading={members.isPending}
          loadingLines={3}
          rows={rows}
          rowKey={(member) => member.dbuserid}
          empty={<StatusPanel icon={<GroupOffOutlinedIcon />} title={t('empty')} text={t('emptyText')} />}
          testId="users-table"
          ariaLabel={t('title')}
          columns={[
            { label: t('columns.account') },
            { label: t('columns.name') },
            { label: t('columns.groups') },
            { label: t('columns.actions'), labelHidden: true, align: 'right' },
          ]}
          renderRow={(member) => (
            <MemberRow
              member={member}
              canForceAccept={canForceAccept}
              onEdit={() => setEditing(member)}
              onRemove={() => setRemoving(member)}
              onAccept={() => setAccepting(member)}
            />
          )}
        />
      </Card>
      <InviteUserDialog open={inviting} teamUuid={teamUuid} onClose={() => setInviting(false)} />
      {editing && <EditUserDialog member={editing} teamUuid={teamUuid} onClose={() => setEditing(null)} />}
      {accepting && (
        <AcceptInvitationDialog member={accepting} teamUuid={teamUuid} onClose={() => setAccepting(null)} />
      )}
      <ConfirmRemoval
        item={removing}
        title={t('remove.title')}
        message={t('remove.message')}
        confirmLabel={t('remove.confirm')}
        cancelLabel={t('remove.cancel')}
        remove={(member, options) => remove.mutate(member.email, options)}
        removing={remove.isPending}
        removed={(member) => t('removed', { email: member.email })}
        onClose={() => setRemoving(null)}
        testId="user-remove-dialog"
      />
    </>
  );
}

export function UsersPage() {
  const { t } = useTranslation('users');
  useDocumentTitle(t('title'));
  const team = useCurrentTeam();
  return (
    <PageContainer>
      <OwnersAndOperatorsOnly>
        <UsersTable teamUuid={team.teamid} />
      </OwnersAndOperatorsOnly>
    </PageContainer>
  );
}
