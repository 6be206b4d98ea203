// The menu of one booking chip (spec §4): exactly the allowed changes. One menu serves the whole
// table; the chip that opened it names the booking.
import { Menu, MenuItem } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { type Booking, useChangeBooking } from '../../api/calendar.ts';
import { type BookingAction, bookingActions } from './booking-rules.ts';

export type OpenBooking = { anchor: HTMLElement; entryId: number; booking: Booking };

export function BookingMenu({
  teamUuid,
  open,
  onClose,
}: {
  teamUuid: string;
  open: OpenBooking | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('calendar');
  const { enqueueSnackbar } = useSnackbar();
  const change = useChangeBooking(teamUuid);
  const choose = (action: BookingAction) => {
    if (!open) return;
    onClose();
    change.mutate(
      { entryId: open.entryId, userId: open.booking.userId, ...action.change },
      { onSuccess: () => enqueueSnackbar(t('booking.changed'), { variant: 'success' }) },
    );
  };
  return (
    <Menu anchorEl={open?.anchor ?? null} open={open !== null} onClose={onClose}>
      {open &&
        bookingActions(open.booking).map((action) => (
          <MenuItem
            key={action.key}
            onClick={() => choose(action)}
            data-testid={`booking-action-${action.key}`}
          >
            {t(action.label)}
          </MenuItem>
        ))}
    </Menu>
  );
}
