// One row of the calendar table: time, event, bookings, location, flags and the row icons of
// spec §2 (create, delete, invite photographers, download XMP, copy) plus confirm and cancel.
import AddCircleOutlineIcon from '@mui/icons-material/AddCircleOutlineOutlined';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import ContentCopyOutlinedIcon from '@mui/icons-material/ContentCopyOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import DownloadOutlinedIcon from '@mui/icons-material/DownloadOutlined';
import EventBusyOutlinedIcon from '@mui/icons-material/EventBusyOutlined';
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined';
import { Chip, IconButton, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type CalendarEntry, entryXmpUrl } from '../../api/calendar.ts';
import { BookingChip } from './booking-chip.tsx';
import { dayKey, formatDate, formatTime } from './calendar-time.ts';
import { FlagsButton } from './flags-button.tsx';

export type RowAction = 'edit' | 'create' | 'delete' | 'invite' | 'copy' | 'confirm' | 'cancel';

type Props = {
  entry: CalendarEntry;
  teamUuid: string;
  zone: string;
  /** Owners and operators: bookings, flags, XMP (spec §6). */
  admin: boolean;
  /** Not a photographer: create, edit, delete, invite, copy (spec §6). */
  planner: boolean;
  onAction: (action: RowAction, entry: CalendarEntry) => void;
};

function RowIcon({
  label,
  onClick,
  testId,
  children,
  href,
}: {
  label: string;
  onClick?: () => void;
  testId: string;
  children: ReactNode;
  href?: string;
}) {
  return (
    <IconButton
      size="small"
      title={label}
      aria-label={label}
      onClick={onClick}
      data-testid={testId}
      {...(href ? { component: 'a', href, download: '' } : {})}
    >
      {children}
    </IconButton>
  );
}

export const EntryRow = memo(function EntryRow({
  entry,
  teamUuid,
  zone,
  admin,
  planner,

  onAction,
}: Props) {
  const { t } = useTranslation('calendar');
  const isDefault = entry.calendartype === 'default';
  const start = formatTime(entry.startdatetime, zone);
  // An event ending on another local day names that day.
  const end =
    dayKey(entry.enddatetime, zone) === dayKey(entry.startdatetime, zone)
      ? formatTime(entry.enddatetime, zone)
      : `${formatDate(entry.enddatetime, zone)} ${formatTime(entry.enddatetime, zone)}`;
  const place = [entry.location, entry.city].filter(Boolean).join(', ');
  const kind = [
    entry.category && t(`categories.${entry.category}`, { defaultValue: entry.category }),
    entry.subcategory,
    entry.scene,
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <TableRow
      hover
      onDoubleClick={() => onAction('edit', entry)}
      data-testid={`entry-row-${entry.dbcalendarentryid}`}
      data-cancelled={entry.cancelled ? 'true' : undefined}
      sx={{ cursor: 'default', ...(entry.cancelled ? { '& td': { color: 'text.disabled' } } : {}) }}
    >
      <TableCell sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} data-testid="entry-time">
        {start}
        <Typography component="span" variant="body2" color="text.secondary">
          {` – ${end}`}
        </Typography>
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography
            variant="body2"
            sx={{ fontWeight: 600, textDecoration: entry.cancelled ? 'line-through' : undefined }}
            data-testid="entry-summary"
          >
            {entry.summary}
          </Typography>
          {entry.cancelled && (
            <Chip size="small" label={t('table.cancelled')} data-testid="entry-cancelled" />
          )}
          {!isDefault && <Chip size="small" variant="outlined" label={t('table.external')} />}
          {entry.confirmedByCurrentUser && (
            <CheckCircleIcon
              fontSize="small"
              color="success"
              titleAccess={t('table.confirmed')}
              data-testid="entry-confirmed"
            />
          )}
        </Stack>
        {kind && (
          <Typography variant="caption" color="text.secondary">
            {kind}
          </Typography>
        )}
      </TableCell>
      {admin && (
        <TableCell data-testid="entry-bookings">
          {entry.bookings.map((booking) => (
            <BookingChip
              key={booking.userId}
              teamUuid={teamUuid}
              entryId={entry.dbcalendarentryid}
              booking={booking}
              name={booking.fullname || `#${booking.userId}`}
            />
          ))}
        </TableCell>
      )}
      <TableCell>
        <Typography variant="body2">{place}</Typography>
      </TableCell>
      {admin && <TableCell>{isDefault && <FlagsButton teamUuid={teamUuid} entry={entry} />}</TableCell>}
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {planner && !isDefault && (
          <RowIcon
            label={t('actions.create')}
            onClick={() => onAction('create', entry)}
            testId="entry-create"
          >
            <AddCircleOutlineIcon fontSize="small" />
          </RowIcon>
        )}
        {planner && isDefault && (
          <RowIcon
            label={t('actions.invite')}
            onClick={() => onAction('invite', entry)}
            testId="entry-invite"
          >
            <GroupAddOutlinedIcon fontSize="small" />
          </RowIcon>
        )}
        {admin && isDefault && (
          <RowIcon
            label={t('actions.downloadXmp')}
            href={entryXmpUrl(teamUuid, entry.dbcalendarentryid)}
            testId="entry-xmp"
          >
            <DownloadOutlinedIcon fontSize="small" />
          </RowIcon>
        )}
        {planner && isDefault && (
          <RowIcon label={t('actions.copy')} onClick={() => onAction('copy', entry)} testId="entry-copy">
            <ContentCopyOutlinedIcon fontSize="small" />
          </RowIcon>
        )}
        {isDefault && !entry.cancelled && !entry.confirmedByCurrentUser && (
          <RowIcon
            label={t('actions.confirm')}
            onClick={() => onAction('confirm', entry)}
            testId="entry-confirm"
          >
            <CheckCircleOutlineIcon fontSize="small" />
          </RowIcon>
        )}
        {planner && isDefault && !entry.cancelled && (
          <RowIcon
            label={t('actions.cancel')}
            onClick={() => onAction('cancel', entry)}
            testId="entry-cancel"
          >
            <EventBusyOutlinedIcon fontSize="small" />
          </RowIcon>
        )}
        {planner && isDefault && (
          <RowIcon
            label={t('actions.delete')}
            onClick={() => onAction('delete', entry)}
            testId="entry-delete"
          >
            <DeleteOutlineIcon fontSize="small" />
          </RowIcon>
        )}
      </TableCell>
    </TableRow>
  );
});
