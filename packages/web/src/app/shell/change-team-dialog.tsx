import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import {
  Avatar,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItemAvatar,
  ListItemButton,
  ListItemText,
} from '@mui/material';
import { useSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSwitchTeam } from '../../api/account.ts';
import type { TeamMembership } from '../../ui/session.ts';

type Props = {
  open: boolean;
  onClose: () => void;
  teams: TeamMembership[];
  currentTeamId: string | undefined;
};

/** 'Team wechseln': choosing a team makes it the current team and reloads the team's data. */
export function ChangeTeamDialog({ open, onClose, teams, currentTeamId }: Props) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const switchTeam = useSwitchTeam();

  const choose = (team: TeamMembership) => {
    if (team.teamid === currentTeamId) return onClose();
    switchTeam.mutate(team.teamid, {
      onSuccess: () => {
        onClose();
        navigate('/');
        enqueueSnackbar(t('changeTeam.switched', { team: team.name }), { variant: 'success' });
      },
    });
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="change-team-title">
      <DialogTitle id="change-team-title">{t('changeTeam.title')}</DialogTitle>
      <DialogContent sx={{ px: 1.5, pb: 0 }}>
        <List data-testid="change-team-list">
          {teams.map((team) => {
            const current = team.teamid === currentTeamId;
            return (
              <ListItemButton
                key={team.teamid}
                selected={current}
                disabled={switchTeam.isPending}
                onClick={() => choose(team)}
              >
                <ListItemAvatar>
                  <Avatar
                    sx={{
                      bgcolor: current ? 'primary.main' : 'action.selected',
                      color: current ? '#fff' : 'text.secondary',
                    }}
                  >
                    <GroupsOutlinedIcon fontSize="small" />
                  </Avatar>
                </ListItemAvatar>
                <ListItemText
                  primary={team.name}
                  secondary={current ? t('changeTeam.current') : team.ready ? null : t('changeTeam.notReady')}
                />
                {current && <CheckCircleIcon color="primary" fontSize="small" />}
                {!team.ready && !current && <Chip size="small" label={t('changeTeam.notReadyChip')} />}
              </ListItemButton>
            );
          })}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('changeTeam.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
