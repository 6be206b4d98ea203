import { useCallback, useMemo, useState } from 'react';
import {
  agendaMonths,
  agendaRange,
  type CalendarView,
  clampDay,
  inRange,
  isDay,
  isMonth,
  monthOf,
  monthRange,
  shiftMonth,
} from './calendar-range.ts';

/**
 * Which days the calendar shows (issue 27 item 1): an agenda from today (or `?start=`), longer
 * with each 'Show later events', or a month (`?view=month&month=`), paged by month and moved to a
 * saved event's day when it lies outside.
 */
export function useShownRange(params: URLSearchParams, today: string) {
  const [view, setView] = useState<CalendarView>(() => (params.get('view') === 'month' ? 'month' : 'agenda'));
  // null: the month of today, and an agenda from today (the team's zone is known after the first answer).
  const [pickedMonth, setPickedMonth] = useState<string | null>(() => {
    const month = params.get('month');
    const start = params.get('start');
    return isMonth(month) ? month : isDay(start) ? monthOf(clampDay(start)) : null;
  });
  const [agendaStart, setAgendaStart] = useState<string | null>(() => {
    const start = params.get('start');
    return isDay(start) ? clampDay(start) : null;
  });
  // How many steps of agendaMonths the agenda shows ('Show later events' adds one).
  const [agendaSteps, setAgendaSteps] = useState(1);
  const agendaFrom = agendaStart ?? today;
  const month = view === 'month' ? (pickedMonth ?? monthOf(today)) : monthOf(agendaFrom);
  const range = useMemo(
    () => (view === 'month' ? monthRange(month) : agendaRange(agendaFrom, agendaMonths * agendaSteps)),
    [view, month, agendaFrom, agendaSteps],
  );
  const goToMonth = useCallback(
    (next: string) => {
      setPickedMonth(next);
      // The agenda of the current month starts today, of another month on its first day.
      setAgendaStart(next === monthOf(today) ? null : `${next}-01`);
      setAgendaSteps(1);
    },
    [today],
  );
  const onShift = useCallback((by: number) => goToMonth(shiftMonth(month, by)), [goToMonth, month]);
  const onToday = useCallback(() => {
    setPickedMonth(null);
    setAgendaStart(null);
    setAgendaSteps(1);
  }, []);
  const onView = useCallback(
    (next: CalendarView) => {
      setView(next);
      if (next === 'month') setPickedMonth(month);
    },
    [month],
  );
  const showDay = useCallback(
    (day: string) => {
      if (inRange(day, range)) return;
      if (view === 'month') setPickedMonth(monthOf(day));
      else {
        setAgendaStart(day < today ? day : `${monthOf(day)}-01`);
        setAgendaSteps(1);
      }
    },
    [range, view, today],
  );
  const showLater = useCallback(() => setAgendaSteps((steps) => steps + 1), []);
  return { view, month, range, goToMonth, onShift, onToday, onView, showDay, showLater };
}
