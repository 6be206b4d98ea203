// 'My bookings' for photographers (issue 12): their own invitations and bookings, where an open
// invitation can be accepted or rejected.
import { Button, Card, Chip, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { useAnswerInvitation, useMyBookings } from '../../api/calendar.ts';
import { CardHeading } from '../../ui/card-heading.tsx';
import { useCurrentTeam } from '../../ui/session.ts';
import { bookingWords, chipColors, chipTone } from './booking-rules.ts';

export function MyBookings({ teamUuid }: { teamUuid: string }) {
  const { t } = useTranslation('calendar');
  const { enqueueSnackbar } = useSnackbar();
  const team = useCurrentTeam();
  const list = useMyBookings(teamUuid, true);
  const respond = useAnswerInvitation(teamUuid);
  const answer = (entryId: number, value: 'accepted' | 'rejected') =>
    respond.mutate(
      { entryId, answer: value },
      { onSuccess: () => enqueueSnackbar(t(`myBookings.${value}`), { variant: 'success' }) },
    );
  const rows = list.data ?? [];
  return (
    <Card sx={{ mb: 3 }} data-testid="my-bookings">
      <CardHeading title={t('myBookings.title')} subtitle={t('myBookings.subtitle')} />
      {rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ px: 2.5, py: 2 }}>
          {t('myBookings.emptyForMember', { team: team.name })}
        </Typography>
      ) : (
        <List dense>
          {rows.map(({ entry, booking }) => {
            const colors = chipColors[entry.cancelled ? 'grey' : chipTone(booking)];
            return (
              <ListItem
                key={entry.dbcalendarentryid}
                data-testid={`my-booking-${entry.dbcalendarentryid}`}
                data-answer={booking.answer}
                sx={{ px: 2.5, flexWrap: 'wrap', gap: 1 }}
              >
                <ListItemText
                  primary={entry.summary}
                  secondary={[
                    `${entry.localizedStartDate} ${entry.localizedStartTime}`,
                    [entry.location, entry.city].filter(Boolean).join(', '),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                  slotProps={{
                    primary: { sx: { textDecoration: entry.cancelled ? 'line-through' : undefined } },
                  }}
                />
                <Stack
                  direction="row"
                  spacing={1}
                  useFlexGap
                  sx={{ alignItems: 'center', flexWrap: 'wrap', justifyContent: 'flex-end' }}
                >
                  {/* One state per event, in words (issue 27 item 4); the colour only repeats it. */}
                  <Chip
                    size="small"
                    label={t(bookingWords(booking, { own: true, eventCancelled: entry.cancelled }))}
                    data-testid="my-booking-state"
                    sx={{
                      bgcolor: colors.bg,
                      color: colors.fg,
                      height: 'auto',
                      py: 0.25,
                      '& span': { whiteSpace: 'normal' },
                    }}
                  />
                  {booking.answer !== 'accepted' && !entry.cancelled && (
                    <Button
                      size="small"
                      variant="contained"
                      disabled={respond.isPending}
                      onClick={() => answer(entry.dbcalendarentryid, 'accepted')}
                      data-testid="my-booking-accept"
                    >
                      {t('myBookings.accept')}
                    </Button>
                  )}
                  {booking.answer !== 'rejected' && !entry.cancelled && (
                    <Button
                      size="small"
                      disabled={respond.isPending}
                      onClick={() => answer(entry.dbcalendarentryid, 'rejected')}
                      data-testid="my-booking-reject"
                    >
                      {t('myBookings.reject')}
                    </Button>
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
