// The calendar table (spec §2): entries grouped by their local start day, 200 per page. Rows are
// plain table elements styled here once (entry-row.tsx); the booking menu and the flags popover
// are one each for the whole table.
import EventAvailableOutlinedIcon from '@mui/icons-material/EventAvailableOutlined';
import { Box, Skeleton, Stack, TablePagination, useMediaQuery } from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import type { ParseKeys } from 'i18next';
import { Fragment, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Booking, CalendarEntry } from '../../api/calendar.ts';
import { useTeamFlags } from '../../api/calendar-flags.ts';
import { StatusPanel } from '../../ui/page.tsx';
import { BookingLegend } from './booking-legend.tsx';
import { BookingMenu, type OpenBooking } from './booking-menu.tsx';
import { bookingWords } from './booking-rules.ts';
import { dayKeyToText } from './calendar-time.ts';
import { EntryRow, type RowAction, type RowLabels } from './entry-row.tsx';
import { FlagListDialog } from './flag-list-dialog.tsx';
import { FlagsPopover, type OpenFlags } from './flags-popover.tsx';
import { rowIconStyles } from './row-icons.tsx';
import { RowTooltip } from './row-tooltip.tsx';

type Props = {
  /** One page of the range (the server pages by calendarPageSize), `offset` entries in. */
  entries: readonly CalendarEntry[];
  total: number;
  offset: number;
  onOffset: (offset: number) => void;
  loading: boolean;
  teamUuid: string;
  admin: boolean;
  planner: boolean;
  onAction: (action: RowAction, entry: CalendarEntry) => void;
  /** The entry just saved: marked until another is. */
  highlight?: number | null;
  /** What an empty range says ("No events between 28.11. and 27.12.") and who may change that. */
  emptyTitle: string;
  emptyHint?: string;
};

const pageSize = limits.calendarPageSize;

/** `compute` remembered per key (by default the argument itself). */
function once<A, R>(compute: (arg: A) => R, keyOf: (arg: A) => unknown = (arg) => arg) {
  const cache = new Map<unknown, R>();
  return (arg: A) => {
    const key = keyOf(arg);
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(arg);
      cache.set(key, value);
    }
    return value;
  };
}

/**
 * Consecutive entries of one local day: the server orders by start, then id, and names each
 * entry's start day in the team's zone (`startDate`, yyyy-mm-dd).
 */
export function groupByDay(entries: readonly CalendarEntry[]) {
  const groups: { day: string; entries: CalendarEntry[] }[] = [];
  for (const entry of entries) {
    const day = entry.startDate;
    const last = groups.at(-1);
    if (last && last.day === day) last.entries.push(entry);
    else groups.push({ day, entries: [entry] });
  }
  return groups;
}

const tableStyles = {
  width: '100%',
  borderCollapse: 'collapse',
  typography: 'body2',
  '& th': {
    textAlign: 'left',
    px: 2,
    py: 1.25,
    fontSize: '0.75rem',
    fontWeight: 600,
    letterSpacing: '0.04em',
    textTransform: 'uppercase',
    color: 'text.secondary',
    borderBottom: 1,
    borderColor: 'divider',
  },
  '& td': { px: 2, py: 0.75, borderBottom: 1, borderColor: 'divider', verticalAlign: 'middle' },
  '& tr.day td': { bgcolor: 'rgba(31,79,179,0.06)', fontWeight: 600, color: 'primary.dark', py: 0.75 },
  '& tr.entry:hover': { bgcolor: 'action.hover' },
  '& tr.highlight td, & .card.highlight': { bgcolor: 'rgba(253,216,53,0.22)' },
  // Below 600 px: a list of cards instead of the table (issue 27 item 9).
  '& div.day': {
    px: 2,
    py: 0.75,
    bgcolor: 'rgba(31,79,179,0.06)',
    fontWeight: 600,
    color: 'primary.dark',
    borderBottom: 1,
    borderColor: 'divider',
  },
  '& .card': {
    display: 'flex',
    flexDirection: 'column',
    gap: 0.5,
    px: 2,
    py: 1.25,
    borderBottom: 1,
    borderColor: 'divider',
  },
  '& .card .time': { fontVariantNumeric: 'tabular-nums' },
  '& .card.cancelled .summary': { textDecoration: 'line-through' },
  '& .card.cancelled': { color: 'text.disabled' },
  '& .card .actions': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.25, mx: -0.75 },
  '& tr.cancelled td': { color: 'text.disabled' },
  '& tr.cancelled .summary': { textDecoration: 'line-through' },
  '& td.time': { whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' },
  '& .muted, & .caption': { color: 'text.secondary' },
  '& .caption': { fontSize: '0.75rem' },
  '& .title': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 },
  '& .summary': { fontWeight: 600 },
  '& .tag, & .chip': {
    display: 'inline-flex',
    alignItems: 'center',
    height: 24,
    px: 1,
    borderRadius: 12,
    fontSize: '0.8125rem',
    lineHeight: 1,
    bgcolor: 'action.selected',
    border: 0,
    whiteSpace: 'nowrap',
  },
  '& .outlined': { bgcolor: 'transparent', border: 1, borderColor: 'divider' },
  '& .confirmed': { color: 'success.main', display: 'inline-flex' },
  '& .booking': {
    display: 'inline-flex',
    alignItems: 'center',
    gap: 0.5,
    mr: 0.5,
    my: 0.25,
    maxWidth: '100%',
  },
  '& button.chip': { cursor: 'pointer', fontWeight: 500, font: 'inherit', fontSize: '0.8125rem' },
  // A booking chip wraps its words inside itself (a German state is long): the bookings column
  // stays narrow enough for the table to fit 1366 px without scrolling inside its card.
  '& .chip': {
    // Inline text, not flex items: the name and the state flow as one line that wraps.
    display: 'inline-block',
    whiteSpace: 'normal',
    height: 'auto',
    minHeight: 24,
    py: 0.25,
    lineHeight: 1.35,
    textAlign: 'left',
  },
  '& td.bookings': { minWidth: 200, maxWidth: 300 },
  '& button.chip .state': { fontWeight: 400 },
  '& button.chip:hover, & button.chip:focus-visible': { filter: 'brightness(0.95)' },
  // Up to six icons, three a row (each 30 px): a row's actions take two lines, not 180 px.
  '& td.actions': { textAlign: 'right', py: 0.25, px: 1, width: 106, minWidth: 106 },
  '& .icon, & .flags': {
    display: 'inline-flex',
    alignItems: 'center',
    gap: 0.5,
    border: 0,
    background: 'none',
    color: 'action.active',
    cursor: 'pointer',
    borderRadius: '50%',
    p: 0.625,
    font: 'inherit',
  },
  '& .flags': { borderRadius: 1, px: 0.75, fontWeight: 600, color: 'text.secondary', whiteSpace: 'nowrap' },
  '& .icon:hover, & .flags:hover': { bgcolor: 'action.hover' },
  ...rowIconStyles,
} as const;

export function EntriesTable({
  entries,
  total,
  offset,
  onOffset,
  loading,
  teamUuid,
  admin,
  planner,
  onAction,
  highlight = null,
  emptyTitle,
  emptyHint,
}: Props) {
  const { t } = useTranslation('calendar');
  const [booking, setBooking] = useState<OpenBooking | null>(null);
  const [flags, setFlags] = useState<OpenFlags | null>(null);
  const [flagList, setFlagList] = useState(false);
  const teamFlags = useTeamFlags(teamUuid, admin);
  const flagTotal = teamFlags.data?.length ?? 0;
  const groups = useMemo(() => groupByDay(entries), [entries]);
  const phone = useMediaQuery((theme) => theme.breakpoints.down('sm'));
  // A page past the end (entries deleted meanwhile): the last page instead.
  const emptyPage = !loading && entries.length === 0 && offset > 0;
  useEffect(() => {
    if (emptyPage) onOffset(Math.max(0, Math.ceil(total / pageSize) - 1) * pageSize);
  }, [emptyPage, total, onOffset]);
  // Translated once per distinct value, not per row: 200 rows ask for the same few texts.
  const labels = useMemo<RowLabels>(() => {
    const bookingStatus = once(
      (item: Pick<Booking, 'bookingState' | 'accreditation' | 'answer'>) =>
        `${
          item.bookingState === 'accepted'
            ? t(`accreditation.${item.accreditation}`)
            : t(`bookingState.${item.bookingState}`)
        } · ${t(`booking.answer.${item.answer}`)}`,
      (item) => `${item.bookingState}/${item.accreditation}/${item.answer}`,
    );
    return {
      cancelled: t('table.cancelled'),
      allDay: t('table.allDay'),
      external: t('table.external'),
      confirmed: t('table.confirmed'),
      source: {
        changed: { text: t('table.sourceChanged'), hint: t('table.sourceChangedHint') },
        vanished: { text: t('table.sourceVanished'), hint: t('table.sourceVanishedHint') },
      },
      flags: once((count: number) => t('flags.count', { count, total: flagTotal })),
      categories: once((category: string) => t(`categories.${category}`, { defaultValue: category })),
      subcategories: once((id: string) =>
        t(`subcategories.${id}` as ParseKeys<'calendar'>, { defaultValue: id }),
      ),
      bookingTitle: (item: Booking) => `${item.fullname}: ${bookingStatus(item)}`,
      bookingWords: once(
        (item: Booking) => t(bookingWords(item, { own: false })),
        (item) => `${item.bookingState}/${item.accreditation}/${item.answer}`,
      ),
      myState: (item: Booking, eventCancelled: boolean) =>
        t(bookingWords(item, { own: true, eventCancelled })),
      accreditationNumber: t('booking.accreditationNumber'),
      actions: {
        edit: t('actions.edit'),
        create: t('actions.create'),
        delete: t('actions.delete'),
        invite: t('actions.invite'),
        copy: t('actions.copy'),
        confirm: t('actions.confirm'),
        cancel: t('actions.cancel'),
        downloadXmp: t('actions.downloadXmp'),
        flags: t('actions.flags'),
      },
    };
  }, [t, flagTotal]);
  const onBooking = useCallback(
    (anchor: HTMLElement, entry: CalendarEntry, item: Booking) =>
      setBooking({ anchor, entryId: entry.dbcalendarentryid, booking: item }),
    [],
  );
  const onFlags = useCallback((anchor: HTMLElement, entry: CalendarEntry) => setFlags({ anchor, entry }), []);

  if (loading) {
    return (
      <Stack spacing={1.5} sx={{ p: 3 }}>
        {[0, 1, 2].map((line) => (
          <Skeleton key={line} height={32} />
        ))}
      </Stack>
    );
  }
  if (entries.length === 0) {
    return (
      <StatusPanel
        icon={<EventAvailableOutlinedIcon />}
        title={emptyTitle}
        text={emptyHint}
        testId="calendar-empty"
      />
    );
  }
  const columns = [
    t('columns.time'),
    t('columns.event'),
    ...(admin ? [t('columns.bookings')] : []),
    t('columns.location'),
    ...(admin ? [t('columns.flags')] : []),
  ];
  const cards = phone && (
    <Box sx={tableStyles} data-testid="calendar-table" data-layout="cards">
      {groups.map((group) => (
        <Fragment key={group.day}>
          <div className="day" data-testid={`calendar-day-${group.day}`}>
            {dayKeyToText(group.day)}
          </div>
          {group.entries.map((entry) => (
            <EntryRow
              key={entry.dbcalendarentryid}
              entry={entry}
              teamUuid={teamUuid}
              admin={admin}
              planner={planner}
              highlighted={entry.dbcalendarentryid === highlight}
              layout="card"
              labels={labels}
              onAction={onAction}
              onBooking={onBooking}
              onFlags={onFlags}
            />
          ))}
        </Fragment>
      ))}
    </Box>
  );
  return (
    <RowTooltip>
      {cards || (
        <Box sx={{ overflowX: 'auto' }}>
          <Box component="table" sx={tableStyles} data-testid="calendar-table" aria-label={t('title')}>
            <thead>
              <tr>
                {columns.map((label) => (
                  <th key={label}>{label}</th>
                ))}
                <th aria-label={t('columns.actions')} />
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => (
                <Fragment key={group.day}>
                  <tr className="day" data-testid={`calendar-day-${group.day}`}>
                    <td colSpan={columns.length + 1}>{dayKeyToText(group.day)}</td>
                  </tr>
                  {group.entries.map((entry) => (
                    <EntryRow
                      key={entry.dbcalendarentryid}
                      entry={entry}
                      teamUuid={teamUuid}
                      admin={admin}
                      planner={planner}
                      highlighted={entry.dbcalendarentryid === highlight}
                      labels={labels}
                      onAction={onAction}
                      onBooking={onBooking}
                      onFlags={onFlags}
                    />
                  ))}
                </Fragment>
              ))}
            </tbody>
          </Box>
        </Box>
      )}
      {total > pageSize && (
        <TablePagination
          component="div"
          count={total}
          page={Math.floor(offset / pageSize)}
          onPageChange={(_event, next) => onOffset(next * pageSize)}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[pageSize]}
          labelDisplayedRows={({ from, to, count }) => t('table.rows', { from, to, count })}
        />
      )}
      {admin && <BookingLegend />}
      {admin && <BookingMenu teamUuid={teamUuid} open={booking} onClose={() => setBooking(null)} />}
      {admin && (
        <FlagsPopover
          teamUuid={teamUuid}
          flags={teamFlags.data ?? []}
          open={flags}
          onClose={() => setFlags(null)}
          onManage={() => setFlagList(true)}
        />
      )}
      {flagList && <FlagListDialog teamUuid={teamUuid} onClose={() => setFlagList(false)} />}
    </RowTooltip>
  );
}
