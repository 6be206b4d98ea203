// One booking of an entry (spec §4): a chip in the state's colour with the photographer's name,
// the invitation count while unset, the accreditation number as a chip of its own, and a menu
// with exactly the allowed changes.
import { Box, Chip, Menu, MenuItem } from '@mui/material';
import { useSnackbar } from 'notistack';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Booking, useChangeBooking } from '../../api/calendar.ts';
import { bookingActions, chipColors, chipTone } from './booking-rules.ts';

type Props = { teamUuid: string; entryId: number; booking: Booking; name: string; disabled?: boolean };

export const BookingChip = memo(function BookingChip({ teamUuid, entryId, booking, name, disabled }: Props) {
  const { t } = useTranslation('calendar');
  const { enqueueSnackbar } = useSnackbar();
  const change = useChangeBooking(teamUuid);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const tone = chipTone(booking);
  const colors = chipColors[tone];
  const stateLabel =
    booking.bookingState === 'accepted'
      ? t(`accreditation.${booking.accreditation}`)
      : t(`bookingState.${booking.bookingState}`);
  const label =
    booking.bookingState === 'unset' && booking.suggested > 0 ? `${name} (${booking.suggested})` : name;

  const choose = (patch: ReturnType<typeof bookingActions>[number]['change']) => {
    setAnchor(null);
    change.mutate(
      { entryId, userId: booking.userId, ...patch },
      { onSuccess: () => enqueueSnackbar(t('booking.changed'), { variant: 'success' }) },
    );
  };

  return (
    <Box
      component="span"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mr: 0.5, mb: 0.5 }}
      data-testid={`booking-${booking.userId}`}
      data-state={booking.bookingState}
      data-accreditation={booking.accreditation}
    >
      <Chip
        size="small"
        label={label}
        title={`${name}: ${stateLabel}`}
        aria-label={t('booking.menu', { name })}
        onClick={disabled ? undefined : (event) => setAnchor(event.currentTarget)}
        disabled={change.isPending}
        data-testid="booking-chip"
        data-tone={tone}
        sx={{
          bgcolor: colors.bg,
          color: colors.fg,
          fontWeight: 500,
          // The colour is the state (spec §4): no fade between states, no hover or focus tint.
          transition: 'none',
          '&:hover, &.Mui-focusVisible': { bgcolor: colors.bg, filter: 'brightness(0.95)' },
        }}
      />
      {booking.accreditationNumber && (
        <Chip
          size="small"
          variant="outlined"
          label={booking.accreditationNumber}
          title={t('booking.accreditationNumber')}
          data-testid="booking-accreditation-number"
        />
      )}
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {bookingActions(booking).map((action) => (
          <MenuItem
            key={action.key}
            onClick={() => choose(action.change)}
            data-testid={`booking-action-${action.key}`}
          >
            {t(action.label)}
          </MenuItem>
        ))}
      </Menu>
    </Box>
  );
});
