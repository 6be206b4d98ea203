// Issue 28 "Send again": a delivered picture processed again with today's metadata and script,
// to all or chosen destinations (one added since included).
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export function SendAgainDialog({
  filename,
  destinations,
  open,
  pending,
  onClose,
  onSend,
}: {
  filename: string;
  /** The project's destinations now. */
  destinations: string[];
  open: boolean;
  pending: boolean;
  onClose: () => void;
  onSend: (destinations: string[]) => void;
}) {
  const { t } = useTranslation('jobLog');
  const [chosen, setChosen] = useState<string[]>(destinations);
  const key = destinations.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: all chosen again when the dialog opens for another picture
  useEffect(() => setChosen(key ? key.split('\n') : []), [key, open]);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" data-testid="send-again-dialog">
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{t('sendAgainTitle', { name: filename })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('sendAgainText')}</DialogContentText>
        <FormLabel component="legend">{t('sendAgainTo')}</FormLabel>
        <FormGroup>
          {destinations.map((name) => (
            <FormControlLabel
              key={name}
              control={
                <Checkbox
                  checked={chosen.includes(name)}
                  onChange={(event) =>
                    setChosen(event.target.checked ? [...chosen, name] : chosen.filter((c) => c !== name))
                  }
                  data-testid="send-again-destination"
                />
              }
              label={name}
            />
          ))}
        </FormGroup>
        {chosen.length === 0 && (
          <Typography variant="body2" color="error">
            {t('sendAgainNone')}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button
          variant="contained"
          disabled={pending || chosen.length === 0}
          onClick={() => onSend(chosen)}
          data-testid="send-again-confirm"
        >
          {t('sendAgain')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
