import { TZDate, tz } from '@date-fns/tz';
import { addDays, addHours, addMonths, format, formatISO } from 'date-fns';

// Instants are stored in UTC; the team's IANA zone only decides how they are read and written.
// All zone arithmetic is date-fns + @date-fns/tz: DST gaps and folds are theirs to get right.

/** DD.MM.YYYY, HH:mm and yyyy-mm-dd of an instant in `zone`, and the instant as ISO 8601 with that zone's offset. */
export function inZone(instant: Date, zone: string) {
  const local = new TZDate(instant, zone);
  return {
    iso: formatISO(local),
    date: format(instant, 'dd.MM.yyyy', { in: tz(zone) }),
    time: format(instant, 'HH:mm', { in: tz(zone) }),
    day: format(instant, 'yyyy-MM-dd', { in: tz(zone) }),
  };
}

/** The instant of a wall-clock date (dd.mm.yyyy) and time (hh:mm) in `zone`. */
export function fromLocal(date: string, time: string, zone: string): Date {
  const [d, m, y] = date.split('.').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  return new Date(new TZDate(y, m - 1, d, hh, mm, zone).getTime());
}

/** Midnight in `zone` of a yyyy-mm-dd day. */
export function dayStart(day: string, zone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(new TZDate(y, m - 1, d, 0, 0, zone).getTime());
}

/** One calendar month later in `zone` (a DST change inside the month is the library's business). */
export const monthAfter = (start: Date, zone: string) =>
  new Date(addMonths(new TZDate(start, zone), 1).getTime());
export const daysAfter = (start: Date, days: number, zone: string) =>
  new Date(addDays(new TZDate(start, zone), days).getTime());
export const hoursAfter = (start: Date, hours: number) => addHours(start, hours);
