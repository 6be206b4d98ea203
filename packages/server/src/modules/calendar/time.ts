import { TZDate, tzOffset } from '@date-fns/tz';
import { addDays, addHours, addMonths } from 'date-fns';

// Instants are stored in UTC; the team's IANA zone only decides how they are read and written.
// Which offset applies when is always @date-fns/tz's answer (DST gaps and folds are its business);
// date arithmetic in a zone is date-fns on TZDate.

// A zone's offset only changes at its transitions, a few days a year. Per zone and UTC day the
// library is asked for the offset at the day's start and end: equal (every other day) means the
// whole day has it; on a transition day each instant is asked for. Formatting through date-fns
// per field cost ~1 ms per entry on the loaded bench machine; this is a few µs.
const day = 86_400_000;
const dayOffsets = new Map<string, Map<number, number | null>>();
function offsetMinutes(instant: Date, zone: string): number {
  let byDay = dayOffsets.get(zone);
  if (!byDay || byDay.size > 20_000) {
    byDay = new Map();
    dayOffsets.set(zone, byDay);
  }
  const key = Math.floor(instant.getTime() / day);
  let offset = byDay.get(key);
  if (offset === undefined) {
    const start = tzOffset(zone, new Date(key * day));
    offset = start === tzOffset(zone, new Date(key * day + day - 1)) ? start : null;
    byDay.set(key, offset);
  }
  return offset ?? tzOffset(zone, instant);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** DD.MM.YYYY, HH:mm and yyyy-mm-dd of an instant in `zone`, and the instant as ISO 8601 with that zone's offset. */
export function inZone(instant: Date, zone: string) {
  const offset = offsetMinutes(instant, zone);
  // The wall clock: the instant moved by the library's offset for it, read as UTC fields.
  const wall = new Date(instant.getTime() + offset * 60_000);
  const [y, mo, d, h, mi, s] = [
    wall.getUTCFullYear(),
    wall.getUTCMonth() + 1,
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
  ];
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const ymd = `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
  return {
    iso: `${ymd}T${pad(h)}:${pad(mi)}:${pad(s)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`,
    date: `${pad(d)}.${pad(mo)}.${pad(y, 4)}`,
    time: `${pad(h)}:${pad(mi)}`,
    day: ymd,
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
