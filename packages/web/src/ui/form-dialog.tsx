// A small form in a dialog (invite, edit, accept, permissions): title, fields, Cancel and a submit
// button that shows a spinner. While the form is busy the dialog cannot be closed.
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type Props = {
  open?: boolean;
  title: string;
  /** A line under the title, e.g. whom the form is about. */
  subtitle?: ReactNode;
  children: ReactNode;
  submitLabel: string;
  /** Besides while busy. */
  submitDisabled?: boolean;
  busy: boolean;
  onSubmit: () => void;
  onClose: () => void;
  /** The dialog's test id; its title's element id is `${testId}-title`. */
  testId: string;
  submitTestId: string;
};

export function FormDialog({
  open = true,
  title,
  subtitle,
  children,
  submitLabel,
  submitDisabled = false,
  busy,
  onSubmit,
  onClose,
  testId,
  submitTestId,
}: Props) {
  const { t } = useTranslation('common');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="xs"
      data-testid={testId}
      aria-labelledby={`${testId}-title`}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={`${testId}-title`} sx={subtitle ? { pb: 0.5 } : undefined}>
          {title}
        </DialogTitle>
        <DialogContent>
          {subtitle && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
              {subtitle}
            </Typography>
          )}
          {children}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={busy}>
            {t('actions.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={submitDisabled || busy}
            startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
            data-testid={submitTestId}
          >
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
