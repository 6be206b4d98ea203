// Every change of the entry's bookings: who, when, from, to (issue 12).
import { List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useBookingHistory } from '../../api/calendar.ts';
import { formatDate, formatTime } from './calendar-time.ts';

export function BookingHistoryList({
  teamUuid,
  entryId,
  zone,
}: {
  teamUuid: string;
  entryId: number;
  zone: string;
}) {
  const { t } = useTranslation('calendar');
  const history = useBookingHistory(teamUuid, entryId, true);
  if (history.isError) return null;
  const rows = history.data ?? [];
  // Each field's values in its own words; 'suggested' is a count of invitations.
  const prefix: Record<string, string> = {
    bookingState: 'bookingState',
    accreditation: 'accreditation',
    answer: 'booking.answer',
  };
  const label = (field: string, value: string | null | undefined) =>
    value && prefix[field] ? t(`${prefix[field]}.${value}`, { defaultValue: value }) : (value ?? '–');
  return (
    <>
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        {t('event.history')}
      </Typography>
      {rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('event.historyEmpty')}
        </Typography>
      ) : (
        <List dense disablePadding data-testid="booking-history">
          {rows.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: history rows have no id and never reorder
            <ListItem key={index} disableGutters>
              <ListItemText
                primary={t('event.historyLine', {
                  when: `${formatDate(row.changedAt, zone)} ${formatTime(row.changedAt, zone)}`,
                  who: row.changedByName ?? '–',
                  field: t(`event.historyFields.${row.field}`, { defaultValue: row.field }),
                  from: label(row.field, row.from),
                  to: label(row.field, row.to),
                })}
              />
            </ListItem>
          ))}
        </List>
      )}
    </>
  );
}
