// Dates and times of the calendar (spec §9: DD.MM.YYYY, HH:mm) in the team's IANA zone. Instants
// are UTC on the wire; the zone arithmetic (DST, midnight) is date-fns + @date-fns/tz's, never ours.
import { TZDate, tz } from '@date-fns/tz';
import { addHours, format, formatISO, isValid, parse } from 'date-fns';

export const defaultTimeZone = 'Europe/Berlin';

const datePattern = /^\d{2}\.\d{2}\.\d{4}$/;
const timePattern = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Spec §5: strictly dd.mm.yyyy and a real day. */
export const isValidDateText = (text: string) =>
  datePattern.test(text) && isValid(parse(text, 'dd.MM.yyyy', new Date()));

/** Spec §5: strictly hh:mm (24 h). */
export const isValidTimeText = (text: string) => timePattern.test(text);

/** A wire instant as DD.MM.YYYY in `zone`. */
export const formatDate = (instant: string | Date, zone: string) =>
  format(new Date(instant), 'dd.MM.yyyy', { in: tz(zone) });

/** A wire instant as HH:mm in `zone`. */
export const formatTime = (instant: string | Date, zone: string) =>
  format(new Date(instant), 'HH:mm', { in: tz(zone) });

/** The wall-clock date and time typed in the dialog, read in `zone`; null when either is malformed. */
export function parseLocal(date: string, time: string, zone: string): Date | null {
  if (!isValidDateText(date) || !isValidTimeText(time)) return null;
  const parsed = parse(`${date} ${time}`, 'dd.MM.yyyy HH:mm', new Date(), { in: tz(zone) });
  return isValid(parsed) ? parsed : null;
}

/** ISO 8601 with the zone's offset at that instant, e.g. 2026-03-29T04:30:00+02:00. */
export const toOffsetIso = (instant: Date, zone: string) => formatISO(new TZDate(instant.getTime(), zone));

/** Date and time fields of an instant in `zone`. */
export const localParts = (instant: string | Date, zone: string) => ({
  date: formatDate(instant, zone),
  time: formatTime(instant, zone),
});

/** Two real hours after the typed start (across a DST change too), as date and time fields. */
export function defaultEnd(date: string, time: string, zone: string) {
  const start = parseLocal(date, time, zone);
  return start ? localParts(addHours(start, 2), zone) : null;
}

/** Today in `zone` as yyyy-MM-dd (what the date picker and 'Today' use). */
export const todayIso = (zone: string, now: Date = new Date()) => format(now, 'yyyy-MM-dd', { in: tz(zone) });

/** Today in `zone` as dd.mm.yyyy (spec §5 'Event defaults'). */
export const todayText = (zone: string, now: Date = new Date()) =>
  format(now, 'dd.MM.yyyy', { in: tz(zone) });

/** yyyy-MM-dd -> dd.MM.yyyy for the group headers. */
export const dayKeyToText = (key: string) => `${key.slice(8, 10)}.${key.slice(5, 7)}.${key.slice(0, 4)}`;

/** The zones the team setting offers; the runtime's list, the default first when it lacks one. */
export function timeZones(): string[] {
  const list = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return list.includes(defaultTimeZone) ? list : [defaultTimeZone, ...list];
}
