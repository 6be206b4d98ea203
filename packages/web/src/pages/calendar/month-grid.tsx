// The month as a grid of weeks (issue 27 item 1), Monday first, as shared calendars show it: each
// day with its events (on a phone only their number); a day opens its part of the list below.
// Plain elements styled once by the grid (like the table's rows): a month of 200 entries renders
// in the same frame as the list.
import { Box } from '@mui/material';
import { addDays, format, parse } from 'date-fns';
import { de, enGB } from 'date-fns/locale';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarEntry } from '../../api/calendar.ts';
import { visuallyHidden } from '../../ui/visually-hidden.ts';
import { monthWeeks } from './calendar-range.ts';

type Props = {
  month: string;
  today: string;
  entries: readonly CalendarEntry[];
  onDay: (day: string) => void;
};

const shownPerDay = 3;
const readDay = (day: string) => parse(day, 'yyyy-MM-dd', new Date(2000, 0, 1));

const gridStyles = {
  display: 'grid',
  gridTemplateColumns: 'repeat(7, minmax(0, 1fr))',
  borderTop: 1,
  borderColor: 'divider',
  '& .weekday': {
    textAlign: 'center',
    py: 0.75,
    typography: 'caption',
    fontWeight: 600,
    color: 'text.secondary',
    borderBottom: 1,
    borderColor: 'divider',
  },
  '& .cell': {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'stretch',
    textAlign: 'left',
    minWidth: 0,
    minHeight: { xs: 52, sm: 96 },
    p: 0.5,
    m: 0,
    border: 0,
    borderRight: 1,
    borderBottom: 1,
    borderColor: 'divider',
    bgcolor: 'background.paper',
    font: 'inherit',
    color: 'text.primary',
    cursor: 'pointer',
  },
  '& .cell:nth-of-type(7n)': { borderRight: 0 },
  '& .cell:disabled': { cursor: 'default' },
  '& .cell.outside': { bgcolor: 'action.hover', color: 'text.disabled' },
  '& .cell:not(:disabled):hover': { bgcolor: 'action.hover' },
  '& .number': {
    alignSelf: { xs: 'center', sm: 'flex-start' },
    display: 'grid',
    placeItems: 'center',
    width: 24,
    height: 24,
    borderRadius: '50%',
    typography: 'caption',
    fontWeight: 600,
  },
  '& .today .number': { bgcolor: 'primary.main', color: 'primary.contrastText' },
  '& .count': {
    display: { xs: 'block', sm: 'none' },
    textAlign: 'center',
    typography: 'caption',
    color: 'primary.main',
    fontWeight: 600,
  },
  '& .events': { display: { xs: 'none', sm: 'block' }, minWidth: 0 },
  '& .event': {
    display: 'block',
    typography: 'caption',
    lineHeight: 1.5,
    px: 0.5,
    mt: 0.25,
    borderRadius: 0.5,
    bgcolor: 'rgba(31,79,179,0.10)',
    color: 'primary.dark',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& .event.cancelled': {
    bgcolor: 'action.selected',
    color: 'text.disabled',
    textDecoration: 'line-through',
  },
  '& .more': { display: 'block', typography: 'caption', color: 'text.secondary', px: 0.5 },
} as const;

export const MonthGrid = memo(function MonthGrid({ month, today, entries, onDay }: Props) {
  const { t, i18n } = useTranslation('calendar');
  const locale = i18n.resolvedLanguage === 'de' ? de : enGB;
  const weeks = useMemo(() => monthWeeks(month), [month]);
  const byDay = useMemo(() => {
    const map = new Map<string, CalendarEntry[]>();
    for (const entry of entries) {
      const list = map.get(entry.startDate);
      if (list) list.push(entry);
      else map.set(entry.startDate, [entry]);
    }
    return map;
  }, [entries]);
  const monday = readDay(weeks[0]?.[0] ?? `${month}-01`);
  const weekdays = [0, 1, 2, 3, 4, 5, 6].map((i) => format(addDays(monday, i), 'EEEEEE', { locale }));

  return (
    <Box role="group" aria-label={t('range.grid')} data-testid="calendar-grid" sx={gridStyles}>
      {weekdays.map((name) => (
        <span key={name} className="weekday" aria-hidden>
          {name}
        </span>
      ))}
      {weeks.flat().map((day) => {
        const inMonth = day.startsWith(month);
        const list = inMonth ? (byDay.get(day) ?? []) : [];
        const className = ['cell', !inMonth && 'outside', day === today && 'today'].filter(Boolean).join(' ');
        return (
          <button
            type="button"
            key={day}
            className={className}
            disabled={list.length === 0}
            onClick={() => onDay(day)}
            data-testid={`calendar-cell-${day}`}
            data-count={list.length}
          >
            {/* Named by its content, not an aria-label: the name then holds what is seen (WCAG 2.5.3). */}
            <span style={visuallyHidden}>
              {t('range.dayEvents', { day: format(readDay(day), 'P', { locale }), count: list.length })}
            </span>
            <span className="number" aria-hidden>
              {Number(day.slice(8, 10))}
            </span>
            {list.length > 0 && (
              <>
                {/* A phone has room for the number of events only. */}
                <span className="count" aria-hidden>
                  {list.length}
                </span>
                <span className="events">
                  {list.slice(0, shownPerDay).map((entry) => (
                    <span
                      key={entry.dbcalendarentryid}
                      className={entry.cancelled ? 'event cancelled' : 'event'}
                    >{`${entry.localizedStartTime} ${entry.summary}`}</span>
                  ))}
                  {list.length > shownPerDay && (
                    <span className="more">{t('range.more', { count: list.length - shownPerDay })}</span>
                  )}
                </span>
              </>
            )}
          </button>
        );
      })}
    </Box>
  );
});
