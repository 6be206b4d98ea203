// 'My bookings' for photographers (issue 12): their own invitations and bookings, where an open
// invitation can be accepted or rejected.
import { Button, Card, Chip, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { type BookingState, useChangeBooking, useMyBookings } from '../../api/calendar.ts';
import { CardHeading } from '../../app/card-heading.tsx';
import { chipColors, chipTone } from './booking-rules.ts';
import { formatDate, formatTime } from './calendar-time.ts';

export function MyBookings({ teamUuid, userId, zone }: { teamUuid: string; userId: number; zone: string }) {
  const { t } = useTranslation('calendar');
  const { enqueueSnackbar } = useSnackbar();
  const list = useMyBookings(teamUuid, true);
  const change = useChangeBooking(teamUuid);
  const answer = (entryId: number, bookingState: BookingState) =>
    change.mutate(
      { entryId, userId, bookingState },
      {
        onSuccess: () =>
          enqueueSnackbar(t(bookingState === 'accepted' ? 'myBookings.accepted' : 'myBookings.rejected'), {
            variant: 'success',
          }),
      },
    );
  const entries = list.data ?? [];
  return (
    <Card sx={{ mb: 3 }} data-testid="my-bookings">
      <CardHeading title={t('myBookings.title')} subtitle={t('myBookings.subtitle')} />
      {entries.length === 0 ? (
        <Typography color="text.secondary" sx={{ px: 3, pb: 2 }}>
          {t('myBookings.empty')}
        </Typography>
      ) : (
        <List dense>
          {entries.map((entry) => {
            const mine = entry.bookings.find((booking) => booking.userId === userId);
            const colors = mine ? chipColors[chipTone(mine)] : undefined;
            return (
              <ListItem
                key={entry.dbcalendarentryid}
                data-testid={`my-booking-${entry.dbcalendarentryid}`}
                sx={{ px: 3 }}
              >
                <ListItemText
                  primary={entry.summary}
                  secondary={`${formatDate(entry.startdatetime, zone)} ${formatTime(entry.startdatetime, zone)} · ${[entry.location, entry.city].filter(Boolean).join(', ')}`}
                  slotProps={{
                    primary: { sx: { textDecoration: entry.cancelled ? 'line-through' : undefined } },
                  }}
                />
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  {mine && colors && (
                    <Chip
                      size="small"
                      label={
                        mine.bookingState === 'accepted'
                          ? t(`accreditation.${mine.accreditation}`)
                          : t(`bookingState.${mine.bookingState}`)
                      }
                      sx={{ bgcolor: colors.bg, color: colors.fg }}
                    />
                  )}
                  {mine?.bookingState === 'unset' && !entry.cancelled && (
                    <>
                      <Button
                        size="small"
                        variant="contained"
                        disabled={change.isPending}
                        onClick={() => answer(entry.dbcalendarentryid, 'accepted')}
                        data-testid="my-booking-accept"
                      >
                        {t('myBookings.accept')}
                      </Button>
                      <Button
                        size="small"
                        disabled={change.isPending}
                        onClick={() => answer(entry.dbcalendarentryid, 'rejected')}
                        data-testid="my-booking-reject"
                      >
                        {t('myBookings.reject')}
                      </Button>
                    </>
                  )}
                </Stack>
              </ListItem>
            );
          })}
        </List>
      )}
    </Card>
  );
}
