// Which days the calendar lists (issue 27 item 1): an agenda from today across months, or one month
// as a grid; the range always said in words. Days are yyyy-MM-dd in the team's zone (the server
// reads them there), so the arithmetic here is on calendar days only (date-fns, no instants).
import { limits } from '@photorelay/contract/limits';
import { addDays, addMonths, differenceInCalendarDays, format, isValid, parse } from 'date-fns';

export type CalendarView = 'agenda' | 'month';
/** `end` is exclusive. */
export type DayRange = { start: string; end: string };

/** The agenda lists this many months at first; 'Show later events' adds as many again. */
export const agendaMonths = 3;

const readDay = (day: string) => parse(day, 'yyyy-MM-dd', new Date(2000, 0, 1));
const writeDay = (date: Date) => format(date, 'yyyy-MM-dd');
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const monthPattern = /^\d{4}-\d{2}$/;

/** The day clamped into the spec's range (§9: 2022-01-01..2030-01-01). */
export function clampDay(day: string): string {
  if (day < limits.calendarMin) return limits.calendarMin;
  if (day > limits.calendarMax) return limits.calendarMax;
  return day;
}

export const isDay = (text: string | null): text is string =>
  text !== null && dayPattern.test(text) && isValid(readDay(text));
export const isMonth = (text: string | null): text is string =>
  text !== null && monthPattern.test(text) && isValid(readDay(`${text}-01`));

export const monthOf = (day: string) => day.slice(0, 7);
export const shiftMonth = (month: string, by: number) =>
  writeDay(addMonths(readDay(`${month}-01`), by)).slice(0, 7);

/** One month, first day to the first of the next. */
export const monthRange = (month: string): DayRange => ({
  start: clampDay(`${month}-01`),
  end: clampDay(writeDay(addMonths(readDay(`${month}-01`), 1))),
});

/**
 * The agenda from `start` over `months` months, never past the spec's last day nor longer than the
 * server lists at once (calendarListMaxDays).
 */
export function agendaRange(start: string, months: number): DayRange {
  const from = clampDay(start);
  const longest = writeDay(addDays(readDay(from), limits.calendarListMaxDays));
  const wanted = writeDay(addMonths(readDay(from), months));
  const end = clampDay(wanted < longest ? wanted : longest);
  return { start: from, end: end > from ? end : clampDay(writeDay(addDays(readDay(from), 1))) };
}

/** Whether the agenda may grow by another step. */
export const agendaCanGrow = (range: DayRange) =>
  range.end < limits.calendarMax &&
  differenceInCalendarDays(readDay(range.end), readDay(range.start)) < limits.calendarListMaxDays;

export const inRange = (day: string, range: DayRange) => day >= range.start && day < range.end;

/**
 * The range's first and last day as the sentence shows them: 28.11. – 27.12.; with the year when
 * either day is not in `today`'s year.
 */
export function rangeDays(range: DayRange, today: string) {
  const last = writeDay(addDays(readDay(range.end), -1));
  const year = today.slice(0, 4);
  const pattern = range.start.startsWith(year) && last.startsWith(year) ? 'dd.MM.' : 'dd.MM.yyyy';
  return { from: format(readDay(range.start), pattern), to: format(readDay(last), pattern) };
}

/**
 * The weeks of a month's grid, Monday first: each day as yyyy-MM-dd, days of the neighbouring
 * months included to fill the weeks.
 */
export function monthWeeks(month: string): string[][] {
  const first = readDay(`${month}-01`);
  const lead = (first.getDay() + 6) % 7;
  let day = addDays(first, -lead);
  const weeks: string[][] = [];
  do {
    const week: string[] = [];
    for (let i = 0; i < 7; i++) {
      week.push(writeDay(day));
      day = addDays(day, 1);
    }
    weeks.push(week);
  } while (writeDay(day).slice(0, 7) === month);
  return weeks;
}

/** dd.mm.yyyy (the event dialog's date) -> yyyy-MM-dd, or null. */
export function dialogDateToDay(text: string): string | null {
  const date = parse(text, 'dd.MM.yyyy', new Date(2000, 0, 1));
  return isValid(date) ? writeDay(date) : null;
}
