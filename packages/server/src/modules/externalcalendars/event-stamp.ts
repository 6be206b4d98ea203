// Event-aware stamping (issue 13), the rules without I/O: a picture's capture time as an instant,
// which booked event a picture belongs to, and which of the event's fields it gets.
import { TZDate } from '@date-fns/tz';
import type { DateParts } from '@photorelay/xmp/dates';
import type { TemplateValue } from '@photorelay/xmp/template';
import type { BookedEvent } from './event-stamp-queries.ts';

/**
 * The capture time as an instant: EXIF DateTimeOriginal with OffsetTimeOriginal when the camera
 * wrote one, else the camera's clock read in the team's zone. Undefined without a time of day.
 */
export function captureInstant(parts: DateParts | undefined, teamZone: string): Date | undefined {
  if (!parts || parts.month === undefined || parts.day === undefined || parts.hour === undefined)
    return undefined;
  const { year, month, day, hour } = parts;
  const minute = parts.minute ?? 0;
  const second = parts.second ?? 0;
  const zone = parts.zone && /^(Z|[+-]\d\d:\d\d)$/.exec(parts.zone)?.[0];
  if (zone) {
    const sign = zone.startsWith('-') ? -1 : 1;
    const offset = zone === 'Z' ? 0 : sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
    return new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offset * 60_000);
  }
  return new Date(new TZDate(year, month - 1, day, hour, minute, second, teamZone).getTime());
}

const sameName = (a: string, b: string) =>
  a.trim().toLocaleLowerCase('de') === b.trim().toLocaleLowerCase('de') && a.trim() !== '';

/**
 * The event a picture belongs to. A project's FTP account is shared by its photographers, so the
 * upload itself names no one: the events with a photographer booked at the capture time are
 * the candidates; exactly one is applied. When several run at once, the camera's photographer
 * (photographers.json: body serial -> name) decides if booked on exactly one of them.
 */
export function chooseEvent(
  events: readonly BookedEvent[],
  cameraPhotographer: string | undefined,
): { chosen: BookedEvent } | { ambiguous: BookedEvent[] } | undefined {
  if (events.length === 0) return undefined;
  const [only] = events;
  if (events.length === 1 && only) return { chosen: only };
  const name = cameraPhotographer;
  const theirs = name ? events.filter((e) => e.photographers.some((p) => sameName(p, name))) : [];
  const [mine] = theirs;
  return theirs.length === 1 && mine ? { chosen: mine } : { ambiguous: [...events] };
}

/** The IPTC properties an event fills: Headline, Event, Location Shown, Sublocation, City, State, Country. */
export const eventProperties = [
  'headline',
  'eventName',
  'locationsShown',
  'sublocationName',
  'cityName',
  'provinceState',
  'countryName',
] as const;

const propertyOf = (value: Pick<TemplateValue, 'propertytypeids'>) =>
  value.propertytypeids.split(',')[0] ?? '';

/**
 * The event's values for the properties the project's template leaves unset (mode off) and the
 * picture has no value for: the event fills gaps, it never overwrites.
 */
export function fillValues(
  eventValues: readonly TemplateValue[],
  templateModes: Readonly<Record<string, string>>,
  pictureValues: readonly TemplateValue[],
): { values: TemplateValue[]; properties: string[] } {
  const present = new Set(pictureValues.filter((v) => v.value.trim() !== '').map(propertyOf));
  const open = new Set<string>(
    eventProperties.filter((p) => (templateModes[p] ?? 'off') === 'off' && !present.has(p)),
  );
  const values = eventValues.filter((v) => open.has(propertyOf(v)));
  const properties = eventProperties.filter((p) => values.some((v) => propertyOf(v) === p));
  return { values, properties };
}
