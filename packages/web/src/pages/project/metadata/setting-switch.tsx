// A project setting as a switch with its explanation below, in a card of its own (the metadata
// tab's "hold pictures that cannot be stamped" and "stamp the booked event").
import { Card, FormControlLabel, Switch, Typography } from '@mui/material';

/** What a project setting's card gets from the metadata tab. */
export interface ProjectSettingProps {
  teamUuid: string;
  projectId: number;
  canWrite: boolean;
}

export function SettingSwitch({
  id,
  label,
  help,
  checked,
  disabled,
  onChange,
}: {
  /** The switch's test id; `${id}-help` names the explanation. */
  id: string;
  label: string;
  help: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <Card variant="outlined" sx={{ px: 2, py: 1, mb: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={checked}
            disabled={disabled}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: { 'aria-describedby': `${id}-help` } }}
            data-testid={id}
          />
        }
        label={label}
      />
      <Typography id={`${id}-help`} variant="body2" color="text.secondary">
        {help}
      </Typography>
    </Card>
  );
}
