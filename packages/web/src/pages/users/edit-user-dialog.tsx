// 'Edit user' (spec §2, §6): the member's group (never Owner; fixed for the owner) and their
// accreditation number.
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TeamMember, useGroups, useUpdateMember } from '../../api/teams.ts';
import { useGroupLabel } from '../../app/group-label.ts';
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

  const submit = (event: FormEvent) => {
    event.preventDefault();
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
    <Dialog
      open
      onClose={update.isPending ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      data-testid="edit-user-dialog"
      aria-labelledby="edit-user-title"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="edit-user-title" sx={{ pb: 0.5 }}>
          {t('edit.title')}
        </DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
            {member.email_verified ? `${member.fullname} · ${member.email}` : member.email}
          </Typography>
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
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={update.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={update.isPending}
            startIcon={update.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
            data-testid="edit-user-save"
          >
            {tc('actions.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
