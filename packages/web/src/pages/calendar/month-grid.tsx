// The month as a grid of weeks (issue 27 item 1), Monday first, as shared calendars show it: each
// day with its events (on a phone only their number); a day opens its part of the list below.
import { Box, ButtonBase, Typography } from '@mui/material';
import { addDays, format, parse } from 'date-fns';
import { de, enGB } from 'date-fns/locale';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarEntry } from '../../api/calendar.ts';
import { monthWeeks } from './calendar-range.ts';

type Props = {
  month: string;
  today: string;
  entries: readonly CalendarEntry[];
  onDay: (day: string) => void;
};

const shownPerDay = 3;

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
  const monday = parse(weeks[0]?.[0] ?? `${month}-01`, 'yyyy-MM-dd', new Date(2000, 0, 1));
  const weekdays = [0, 1, 2, 3, 4, 5, 6].map((i) => format(addDays(monday, i), 'EEEEEE', { locale }));

  return (
    <Box
      role="group"
      aria-label={t('range.grid')}
      data-testid="calendar-grid"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'repeat(7, minmax(0, 1fr))',
        borderTop: 1,
        borderColor: 'divider',
      }}
    >
      {weekdays.map((name) => (
        <Typography
          key={name}
          aria-hidden
          variant="caption"
          color="text.secondary"
          sx={{ textAlign: 'center', py: 0.75, fontWeight: 600, borderBottom: 1, borderColor: 'divider' }}
        >
          {name}
        </Typography>
      ))}
      {weeks.flat().map((day) => {
        const inMonth = day.startsWith(month);
        const list = byDay.get(day) ?? [];
        const label = t('range.dayEvents', {
          day: format(parse(day, 'yyyy-MM-dd', new Date()), 'P', { locale }),
          count: list.length,
        });
        return (
          <ButtonBase
            key={day}
            aria-label={label}
            disabled={!inMonth || list.length === 0}
            onClick={() => onDay(day)}
            data-testid={`calendar-cell-${day}`}
            data-count={list.length}
            sx={{
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'stretch',
              justifyContent: 'flex-start',
              textAlign: 'left',
              minHeight: { xs: 52, sm: 96 },
              p: 0.5,
              borderRight: 1,
              borderBottom: 1,
              borderColor: 'divider',
              bgcolor: inMonth ? 'background.paper' : 'action.hover',
              '&:nth-of-type(7n)': { borderRight: 0 },
              '&:hover': { bgcolor: 'action.hover' },
              minWidth: 0,
            }}
          >
            <Box
              component="span"
              sx={{
                alignSelf: { xs: 'center', sm: 'flex-start' },
                display: 'grid',
                placeItems: 'center',
                width: 24,
                height: 24,
                borderRadius: '50%',
                typography: 'caption',
                fontWeight: 600,
                color: inMonth ? 'text.primary' : 'text.disabled',
                ...(day === today && { bgcolor: 'primary.main', color: 'primary.contrastText' }),
              }}
            >
              {Number(day.slice(8, 10))}
            </Box>
            {inMonth && list.length > 0 && (
              <>
                {/* A phone has room for the number of events only. */}
                <Box
                  component="span"
                  sx={{
                    display: { xs: 'block', sm: 'none' },
                    textAlign: 'center',
                    typography: 'caption',
                    color: 'primary.main',
                    fontWeight: 600,
                  }}
                >
                  {list.length}
                </Box>
                <Box component="span" sx={{ display: { xs: 'none', sm: 'block' }, minWidth: 0 }}>
                  {list.slice(0, shownPerDay).map((entry) => (
                    <Box
                      component="span"
                      key={entry.dbcalendarentryid}
                      sx={{
                        display: 'block',
                        typography: 'caption',
                        lineHeight: 1.5,
                        px: 0.5,
                        mt: 0.25,
                        borderRadius: 0.5,
                        bgcolor: entry.cancelled ? 'action.selected' : 'rgba(31,79,179,0.10)',
                        color: entry.cancelled ? 'text.disabled' : 'primary.dark',
                        textDecoration: entry.cancelled ? 'line-through' : undefined,
                        overflow: 'hidden',
                        textOverflow: 'ellipsis',
                        whiteSpace: 'nowrap',
                      }}
                    >
                      {`${entry.localizedStartTime} ${entry.summary}`}
                    </Box>
                  ))}
                  {list.length > shownPerDay && (
                    <Box
                      component="span"
                      sx={{ display: 'block', typography: 'caption', color: 'text.secondary', px: 0.5 }}
                    >
                      {t('range.more', { count: list.length - shownPerDay })}
                    </Box>
                  )}
                </Box>
              </>
            )}
          </ButtonBase>
        );
      })}
    </Box>
  );
});
