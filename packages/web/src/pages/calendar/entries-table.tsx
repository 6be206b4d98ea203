// The calendar table (spec §2): entries grouped by their local start day, 200 per page.
import EventAvailableOutlinedIcon from '@mui/icons-material/EventAvailableOutlined';
import {
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
} from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { Fragment, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarEntry } from '../../api/calendar.ts';
import { StatusPanel } from '../../app/page.tsx';
import { dayKey, dayKeyToText } from './calendar-time.ts';
import { EntryRow, type RowAction } from './entry-row.tsx';

type Props = {
  entries: readonly CalendarEntry[];
  loading: boolean;
  teamUuid: string;
  zone: string;
  admin: boolean;
  planner: boolean;
  onAction: (action: RowAction, entry: CalendarEntry) => void;
};

/** Consecutive entries of one local day (the server orders by start, then id). */
const pageSize = limits.calendarPageSize;

export function groupByDay(entries: readonly CalendarEntry[], zone: string) {
  const groups: { day: string; entries: CalendarEntry[] }[] = [];
  for (const entry of entries) {
    const day = dayKey(entry.startdatetime, zone);
    const last = groups.at(-1);
    if (last && last.day === day) last.entries.push(entry);
    else groups.push({ day, entries: [entry] });
  }
  return groups;
}

export function EntriesTable({ entries, loading, teamUuid, zone, admin, planner, onAction }: Props) {
  const { t } = useTranslation('calendar');
  const [page, setPage] = useState(0);
  const lastPage = Math.max(0, Math.ceil(entries.length / pageSize) - 1);
  const shownPage = Math.min(page, lastPage);
  const groups = useMemo(
    () => groupByDay(entries.slice(shownPage * pageSize, (shownPage + 1) * pageSize), zone),
    [entries, shownPage, zone],
  );

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
        title={t('table.empty')}
        text={t('table.emptyHint')}
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
  return (
    <>
      <TableContainer>
        <Table size="small" data-testid="calendar-table" aria-label={t('title')}>
          <TableHead>
            <TableRow>
              {columns.map((label) => (
                <TableCell key={label}>{label}</TableCell>
              ))}
              <TableCell aria-label={t('columns.actions')} />
            </TableRow>
          </TableHead>
          <TableBody>
            {groups.map((group) => (
              <Fragment key={group.day}>
                <TableRow data-testid={`calendar-day-${group.day}`}>
                  <TableCell
                    colSpan={columns.length + 1}
                    sx={{ bgcolor: 'rgba(31,79,179,0.06)', fontWeight: 600, color: 'primary.dark', py: 0.75 }}
                  >
                    {dayKeyToText(group.day)}
                  </TableCell>
                </TableRow>
                {group.entries.map((entry) => (
                  <EntryRow
                    key={entry.dbcalendarentryid}
                    entry={entry}
                    teamUuid={teamUuid}
                    zone={zone}
                    admin={admin}
                    planner={planner}
                    onAction={onAction}
                  />
                ))}
              </Fragment>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {entries.length > pageSize && (
        <TablePagination
          component="div"
          count={entries.length}
          page={shownPage}
          onPageChange={(_event, next) => setPage(next)}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[pageSize]}
          labelDisplayedRows={({ from, to, count }) => t('table.rows', { from, to, count })}
        />
      )}
    </>
  );
}
