// The folder page's add and edit dialogs (spec §2 'Folder page', §4, §5): pick a user or group
// (only when adding) and a level: 'read only', 'read and write', 'administrate'.
import {
  FormControl,
  FormControlLabel,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../ui/form-dialog.tsx';
import { type Level, levels } from './permission-levels.ts';

export type Choice = { id: number; label: string; detail?: string };

type Props = {
  /** 'user' or 'group': what the dialog is about. */
  subject: 'user' | 'group';
  /** Adding: the users or groups to pick from. Editing: the one being edited. */
  mode: { kind: 'add'; choices: Choice[]; loading: boolean } | { kind: 'edit'; target: Choice; level: Level };
  busy: boolean;
  onSave: (id: number, level: Level) => void;
  onClose: () => void;
};

export function PermissionDialog({ subject, mode, busy, onSave, onClose }: Props) {
  const { t } = useTranslation('folders');
  const { t: tc } = useTranslation('common');
  const [chosen, setChosen] = useState<number | ''>(mode.kind === 'edit' ? mode.target.id : '');
  const [level, setLevel] = useState<Level>(mode.kind === 'edit' ? mode.level : 'read');
  const adding = mode.kind === 'add';

  const submit = () => {
    if (chosen === '') return;
    onSave(chosen, level);
  };

  const title = adding
    ? t(subject === 'user' ? 'dialog.addUserTitle' : 'dialog.addGroupTitle')
    : t('dialog.editTitle');

  return (
    <FormDialog
      title={title}
      submitLabel={tc('actions.save')}
      submitDisabled={chosen === ''}
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      testId="permission-dialog"
      submitTestId="permission-save"
    >
      <Stack spacing={2.5} sx={{ pt: 0.5 }}>
        {mode.kind === 'add' ? (
          <TextField
            select
            required
            label={t(subject === 'user' ? 'dialog.user' : 'dialog.group')}
            value={chosen}
            onChange={(event) => setChosen(Number(event.target.value))}
            disabled={mode.loading}
            helperText={
              !mode.loading && mode.choices.length === 0
                ? t(subject === 'user' ? 'dialog.noUsers' : 'dialog.noGroups')
                : ' '
            }
            slotProps={{ htmlInput: { 'data-testid': 'permission-subject' } }}
            data-testid="permission-subject-select"
          >
            {mode.choices.map((choice) => (
              <MenuItem key={choice.id} value={choice.id} data-testid={`permission-choice-${choice.label}`}>
                <Stack sx={{ minWidth: 0 }}>
                  <Typography variant="body2" noWrap>
                    {choice.label}
                  </Typography>
                  {choice.detail && (
                    <Typography variant="caption" color="text.secondary" noWrap>
                      {choice.detail}
                    </Typography>
                  )}
                </Stack>
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <Stack>
            <Typography variant="caption" color="text.secondary">
              {t(subject === 'user' ? 'dialog.user' : 'dialog.group')}
            </Typography>
            <Typography sx={{ fontWeight: 500 }}>{mode.target.label}</Typography>
          </Stack>
        )}
        <FormControl>
          <FormLabel id="permission-level-label" sx={{ mb: 0.5, fontSize: '0.85rem' }}>
            {t('dialog.level')}
          </FormLabel>
          <RadioGroup
            aria-labelledby="permission-level-label"
            value={level}
            onChange={(event) => setLevel(event.target.value as Level)}
          >
            {levels.map((value) => (
              <FormControlLabel
                key={value}
                value={value}
                control={<Radio size="small" />}
                data-testid={`permission-level-${value}`}
                label={
                  <Stack sx={{ py: 0.25 }}>
                    <Typography variant="body2" sx={{ fontWeight: 500 }}>
                      {t(`levels.${value}`)}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {t(`levelHints.${value}`)}
                    </Typography>
                  </Stack>
                }
                sx={{ alignItems: 'flex-start', '& .MuiRadio-root': { pt: 0.5 } }}
              />
            ))}
          </RadioGroup>
        </FormControl>
      </Stack>
    </FormDialog>
  );
}
