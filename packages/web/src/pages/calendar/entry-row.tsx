// One row of the calendar table: time, event, bookings, location, flags and the row icons of
// spec §2 (create, delete, invite photographers, download XMP, copy) plus confirm and cancel.
// Plain elements styled by the table (entries-table.tsx): 200 of these render in one go.
import { differenceInCalendarDays, parse } from 'date-fns';
import { memo, type ReactNode } from 'react';
import { type Booking, type CalendarEntry, entryXmpUrl } from '../../api/calendar.ts';
import { chipColors, chipTone } from './booking-rules.ts';
import { countFlags } from './event-flags.ts';
import { RowIcon, type RowIconName } from './row-icons.tsx';

export type RowAction = 'edit' | 'create' | 'delete' | 'invite' | 'copy' | 'confirm' | 'cancel';

/** Texts the rows share, translated once by the table. */
export type RowLabels = {
  cancelled: string;
  external: string;
  confirmed: string;
  /** A team copy whose external source changed or vanished: text and hint. */
  source: Record<'changed' | 'vanished', { text: string; hint: string }>;
  /** 'n of 17 flags' for a count of set flags. */
  flags: (count: number) => string;
  categories: (category: string) => string;
  allDay: string;
  subcategories: (subcategory: string) => string;
  bookingTitle: (booking: Booking) => string;
  /** The booking's state in words: the agency's view, or the photographer's own (issue 27 item 4). */
  bookingWords: (booking: Booking) => string;
  myState: (booking: Booking, eventCancelled: boolean) => string;
  accreditationNumber: string;
  actions: Record<RowAction | 'downloadXmp' | 'flags', string>;
};

type Props = {
  entry: CalendarEntry;
  teamUuid: string;
  /** Owners and operators: bookings, flags, XMP (spec §6). */
  admin: boolean;
  /** Not a photographer: create, edit, delete, invite, copy (spec §6). */
  planner: boolean;
  /** The entry just saved (issue 27 item 1: the new event is shown at once). */
  highlighted?: boolean;
  /** A table row, or below 600 px a card (issue 27 item 9: time, event, place, state, actions). */
  layout?: 'row' | 'card';
  labels: RowLabels;
  onAction: (action: RowAction, entry: CalendarEntry) => void;
  onBooking: (anchor: HTMLElement, entry: CalendarEntry, booking: Booking) => void;
  onFlags: (anchor: HTMLElement, entry: CalendarEntry) => void;
};

function IconButton({
  icon,
  label,
  testId,
  onClick,
}: {
  icon: RowIconName;
  label: string;
  testId: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className="icon"
      aria-label={label}
      data-tip={label}
      data-testid={testId}
      onClick={onClick}
    >
      <RowIcon name={icon} />
    </button>
  );
}

function bookingLabel(booking: Booking) {
  const name = booking.fullname || `#${booking.userId}`;
  return booking.bookingState === 'unset' && booking.suggested > 0 ? `${name} (${booking.suggested})` : name;
}

const readDay = (text: string) => parse(text, 'dd.MM.yyyy', new Date(2000, 0, 1));
/** The entry ends on the day after it starts (dates as the server wrote them, dd.mm.yyyy). */
const isNextDay = (entry: CalendarEntry) =>
  differenceInCalendarDays(readDay(entry.localizedEndDate), readDay(entry.localizedStartDate)) === 1;

export const EntryRow = memo(function EntryRow({
  entry,
  teamUuid,
  admin,
  planner,
  highlighted = false,
  layout = 'row',
  labels,
  onAction,
  onBooking,
  onFlags,
}: Props) {
  const isDefault = entry.calendartype === 'default';
  // Dates and times as the server wrote them in the team's zone (no zone arithmetic per cell).
  // An event ending on another local day names that day.
  const end =
    entry.localizedEndDate === entry.localizedStartDate
      ? entry.localizedEndTime
      : `${entry.localizedEndDate} ${entry.localizedEndTime}`;
  // Midnight to midnight reads 'All day', not '00:00 – next day 00:00' (issue 27 item 8).
  const allDay =
    entry.localizedStartTime === '00:00' && entry.localizedEndTime === '00:00' && isNextDay(entry);
  const place = [entry.location, entry.city].filter(Boolean).join(', ');
  const kind = [
    entry.category && labels.categories(entry.category),
    entry.subcategory && labels.subcategories(entry.subcategory),
    entry.scene,
  ]
    .filter(Boolean)
    .join(' · ');
  const icons: ReactNode[] = [];
  const act = (action: RowAction, icon: RowIconName) => (
    <IconButton
      key={action}
      icon={icon}
      label={labels.actions[action]}
      testId={`entry-${action}`}
      onClick={() => onAction(action, entry)}
    />
  );
  if (planner && !isDefault) icons.push(act('create', 'create'));
  if (planner && isDefault) icons.push(act('invite', 'invite'));
  if (admin && isDefault)
    icons.push(
      <a
        key="xmp"
        className="icon"
        href={entryXmpUrl(teamUuid, entry.dbcalendarentryid)}
        download=""
        aria-label={labels.actions.downloadXmp}
        data-tip={labels.actions.downloadXmp}
        data-testid="entry-xmp"
      >
        <RowIcon name="download" />
      </a>,
    );
  if (planner && isDefault) icons.push(act('copy', 'copy'));
  if (isDefault && !entry.cancelled && !entry.confirmedByCurrentUser) icons.push(act('confirm', 'confirm'));
  if (planner && isDefault && !entry.cancelled) icons.push(act('cancel', 'cancel'));
  if (planner && isDefault) icons.push(act('delete', 'delete'));

  const time = allDay ? (
    labels.allDay
  ) : (
    <>
      {entry.localizedStartTime}
      <span className="muted">{` – ${end}`}</span>
    </>
  );
  const title = (
    <>
      <div className="title">
        <span className="summary" data-testid="entry-summary">
          {entry.summary}
        </span>
        {entry.cancelled && (
          <span className="tag" data-testid="entry-cancelled">
            {labels.cancelled}
          </span>
        )}
        {!isDefault && <span className="tag outlined">{labels.external}</span>}
        {(entry.sourceStatus === 'changed' || entry.sourceStatus === 'vanished') && (
          <span
            className="tag outlined"
            title={labels.source[entry.sourceStatus].hint}
            data-testid="entry-source-status"
            data-status={entry.sourceStatus}
          >
            {labels.source[entry.sourceStatus].text}
          </span>
        )}
        {!admin && entry.bookings[0] && (
          <span className="tag" data-testid="entry-my-state">
            {labels.myState(entry.bookings[0], entry.cancelled)}
          </span>
        )}
        {/* A cancelled event shows one state: cancelled, not also a green check. */}
        {entry.confirmedByCurrentUser && !entry.cancelled && (
          <span
            className="confirmed"
            role="img"
            aria-label={labels.confirmed}
            data-tip={labels.confirmed}
            data-testid="entry-confirmed"
          >
            <RowIcon name="confirmed" small />
          </span>
        )}
      </div>
      {kind && <div className="caption">{kind}</div>}
    </>
  );
  const bookings =
    admin &&
    entry.bookings.map((booking) => {
      const tone = chipTone(booking);
      const colors = chipColors[tone];
      return (
        <span
          key={booking.userId}
          className="booking"
          data-testid={`booking-${booking.userId}`}
          data-state={booking.bookingState}
          data-accreditation={booking.accreditation}
          data-answer={booking.answer}
        >
          <button
            type="button"
            className="chip"
            style={{ background: colors.bg, color: colors.fg }}
            title={labels.bookingTitle(booking)}
            data-testid="booking-chip"
            data-tone={tone}
            onClick={(event) => onBooking(event.currentTarget, entry, booking)}
          >
            {booking.answer === 'accepted' ? '✓ ' : booking.answer === 'rejected' ? '✗ ' : ''}
            {bookingLabel(booking)}
            <span className="state">{`\u00a0· ${labels.bookingWords(booking)}`}</span>
          </button>
          {booking.accreditationNumber && (
            <span
              className="chip outlined"
              title={labels.accreditationNumber}
              data-testid="booking-accreditation-number"
            >
              {booking.accreditationNumber}
            </span>
          )}
        </span>
      );
    });
  const flagButton = admin && isDefault && (
    <button
      type="button"
      className="flags"
      // The name starts with the visible words (axe: label-content-name-mismatch).
      aria-label={`${labels.flags(countFlags(entry.flags))} · ${labels.actions.flags}`}
      data-tip={labels.actions.flags}
      data-testid="entry-flags"
      onClick={(event) => onFlags(event.currentTarget, entry)}
    >
      <RowIcon name="flag" small />
      {labels.flags(countFlags(entry.flags))}
    </button>
  );
  const className = ['entry', entry.cancelled && 'cancelled', highlighted && 'highlight']
    .filter(Boolean)
    .join(' ');

  if (layout === 'card')
    return (
      <div
        className={`${className} card`}
        data-testid={`entry-row-${entry.dbcalendarentryid}`}
        data-cancelled={entry.cancelled ? 'true' : undefined}
        data-highlight={highlighted ? 'true' : undefined}
      >
        <div className="time" data-testid="entry-time">
          {time}
        </div>
        {title}
        {place && <div className="caption">{place}</div>}
        {admin && entry.bookings.length > 0 && <div data-testid="entry-bookings">{bookings}</div>}
        <div className="actions">
          {flagButton}
          {/* No double-click on a phone: opening the event is an icon of its own. */}
          {act('edit', 'edit')}
          {icons}
        </div>
      </div>
    );

  return (
    <tr
      className={className}
      onDoubleClick={() => onAction('edit', entry)}
      data-testid={`entry-row-${entry.dbcalendarentryid}`}
      data-cancelled={entry.cancelled ? 'true' : undefined}
      data-highlight={highlighted ? 'true' : undefined}
    >
      <td className="time" data-testid="entry-time">
        {time}
      </td>
      <td>{title}</td>
      {admin && (
        <td className="bookings" data-testid="entry-bookings">
          {bookings}
        </td>
      )}
      <td>{place}</td>
      {admin && <td>{flagButton}</td>}
      <td className="actions">{icons}</td>
    </tr>
  );
});
