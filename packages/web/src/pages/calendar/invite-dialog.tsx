// 'Invite photographers' (spec §5: at least one selected user): members of the Photographer
// group, and on request anyone else of the team; each gets a mail with the invitation link.
import {
  Checkbox,
  FormControlLabel,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Switch,
  Typography,
} from '@mui/material';
import { useSnackbar } from 'notistack';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CalendarEntry, useSuggestEntries } from '../../api/calendar.ts';
import { useMembers } from '../../api/teams.ts';
import { FormDialog } from '../../ui/form-dialog.tsx';

type Props = { teamUuid: string; entry: CalendarEntry; onClose: () => void };

export function InviteDialog({ teamUuid, entry, onClose }: Props) {
  const { t, i18n } = useTranslation('calendar');
  const { enqueueSnackbar } = useSnackbar();
  const members = useMembers(teamUuid);
  const suggest = useSuggestEntries(teamUuid);
  const [showAll, setShowAll] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const offered = (members.data ?? []).filter(
    (member) =>
      member.email_verified && (showAll || member.groups.some((group) => group.name === 'Photographer')),
  );

  const toggle = (id: number) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = () => {
    // Someone hidden again by the switch is not invited.
    const userIds = offered.filter((member) => chosen.has(member.dbuserid)).map((member) => member.dbuserid);
    if (userIds.length === 0) return;
    suggest.mutate(
      {
        userIds,
        entryIds: [entry.dbcalendarentryid],
        language: i18n.resolvedLanguage === 'de' ? 'de' : 'en',
      },
      {
        onSuccess: () => {
          enqueueSnackbar(t('invite.sent'), { variant: 'success' });
          onClose();
        },
      },
    );
  };
  const selectedCount = offered.filter((member) => chosen.has(member.dbuserid)).length;

  return (
    <FormDialog
      title={t('invite.title')}
      subtitle={`${entry.summary} · ${t('invite.subtitle')}`}
      submitLabel={t('invite.submit')}
      submitDisabled={selectedCount === 0}
      busy={suggest.isPending}
      onSubmit={submit}
      onClose={onClose}
      testId="invite-dialog"
      submitTestId="invite-submit"
    >
      <FormControlLabel
        control={<Switch checked={showAll} onChange={(event) => setShowAll(event.target.checked)} />}
        label={t('invite.showAll')}
      />
      {offered.length === 0 && !members.isPending ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {t('invite.none')}
        </Typography>
      ) : (
        <List dense sx={{ maxHeight: 320, overflow: 'auto' }}>
          {offered.map((member) => (
            <ListItemButton
              key={member.dbuserid}
              onClick={() => toggle(member.dbuserid)}
              data-testid={`invite-user-${member.email}`}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <Checkbox
                  edge="start"
                  size="small"
                  checked={chosen.has(member.dbuserid)}
                  tabIndex={-1}
                  disableRipple
                />
              </ListItemIcon>
              <ListItemText primary={member.fullname || member.email} secondary={member.email} />
            </ListItemButton>
          ))}
        </List>
      )}
      {selectedCount === 0 && (
        <Typography variant="caption" color="text.secondary">
          {t('invite.atLeastOne')}
        </Typography>
      )}
    </FormDialog>
  );
}
