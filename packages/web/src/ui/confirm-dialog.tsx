// The confirmation dialog of every destructive action (spec §9: width 400).
import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import type { ReactNode } from 'react';

type Props = {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  /** Red confirm button for actions that destroy something. */
  destructive?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId?: string;
};

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel,
  busy = false,
  destructive = true,
  onConfirm,
  onClose,
  testId = 'confirm-dialog',
}: Props) {
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      slotProps={{ paper: { sx: { width: limits.confirmDialogWidth, maxWidth: 'calc(100% - 32px)' } } }}
      aria-labelledby={`${testId}-title`}
      data-testid={testId}
    >
      <DialogTitle id={`${testId}-title`}>{title}</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary">{message}</Typography>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy} data-testid={`${testId}-cancel`}>
          {cancelLabel}
        </Button>
        <Button
          variant="contained"
          color={destructive ? 'error' : 'primary'}
          onClick={onConfirm}
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid={`${testId}-confirm`}
          autoFocus
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

type RemovalProps<T> = Omit<Props, 'open' | 'onConfirm' | 'busy'> & {
  /** What is to be removed; null = the dialog is closed. */
  item: T | null;
  /** A mutation's `mutate` for the item; the dialog passes the success handler. */
  remove: (item: T, options: { onSuccess: () => void }) => void;
  removing: boolean;
  /** The confirmation shown after it was removed. */
  removed: (item: T) => string;
};

/** Asks before removing a row of a list, removes it, says so, and closes. */
export function ConfirmRemoval<T>({ item, remove, removing, removed, onClose, ...texts }: RemovalProps<T>) {
  const { enqueueSnackbar } = useSnackbar();
  return (
    <ConfirmDialog
      {...texts}
      open={item !== null}
      busy={removing}
      onClose={onClose}
      onConfirm={() =>
        item !== null &&
        remove(item, {
          onSuccess: () => {
            enqueueSnackbar(removed(item), { variant: 'success' });
            onClose();
          },
        })
      }
    />
  );
}
