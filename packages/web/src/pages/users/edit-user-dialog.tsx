// 'Edit user' (spec §2, §6): the member's group (never Owner; fixed for the owner) and their
// accreditation number.
import { MenuItem, Stack, TextField } from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TeamMember, useGroups, useUpdateMember } from '../../api/teams.ts';
import { FormDialog } from '../../ui/form-dialog.tsx';
import { useGroupLabel } from '../../ui/group-label.ts';
import { memberChange } from './member-change.ts';

type Props = { member: TeamMember; teamUuid: string; onClose: () => void };

export function EditUserDialog({ member, teamUuid, onClose }: Props) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation('common');
  const { enqueueSnackbar } = useSnackbar();
  const groupLabel = useGroupLabel();
  const groups = useGroups(teamUuid);
  const update = useUpdateMember(teamUuid);
  const current = member.groups[0];
  const [groupId, setGroupId] = useState<number | ''>(current?.dbgroupid ?? '');
  const [accreditation, setAccreditation] = useState(member.accreditation_number ?? '');

  // The Owner group is never offered; the owner's own group cannot be changed (spec §6).
  const options = member.isOwner
    ? current
      ? [current]
      : []
    : (groups.data ?? []).filter((group) => group.name !== 'Owner');
  const change = memberChange(member, { group: groupId === '' ? null : groupId, accreditation });

  const submit = () => {
    if (!change) {
      onClose();
      return;
    }
    update.mutate(change, {
      onSuccess: () => {
        enqueueSnackbar(t('edit.saved'), { variant: 'success' });
        onClose();
      },
    });
  };

  return (
    <FormDialog
      title={t('edit.title')}
      subtitle={member.email_verified ? `${member.fullname} · ${member.email}` : member.email}
      submitLabel={tc('actions.save')}
      busy={update.isPending}
      onSubmit={submit}
      onClose={onClose}
      testId="edit-user-dialog"
      submitTestId="edit-user-save"
    >
      <Stack spacing={2.5}>
        <TextField
          select
          label={t('edit.group')}
          value={options.some((group) => group.dbgroupid === groupId) ? groupId : ''}
          onChange={(event) => setGroupId(Number(event.target.value))}
          disabled={member.isOwner || groups.isPending}
          helperText={member.isOwner ? t('edit.ownerFixed') : ' '}
          slotProps={{ htmlInput: { 'data-testid': 'edit-user-group' } }}
          data-testid="edit-user-group-select"
        >
          {options.map((group) => (
            <MenuItem
              key={group.dbgroupid}
              value={group.dbgroupid}
              data-testid={`group-option-${group.name}`}
            >
              {groupLabel(group)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label={t('edit.accreditationNumber')}
          value={accreditation}
          onChange={(event) => setAccreditation(event.target.value)}
          helperText={t('edit.accreditationHint')}
          slotProps={{
            htmlInput: {
              maxLength: limits.accreditationNumber,
              'data-testid': 'edit-user-accreditation',
            },
          }}
        />
      </Stack>
    </FormDialog>
  );
}
