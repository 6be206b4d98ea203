import ICAL from 'ical.js';
import { defaultMaxSteps, neverMatchingRule, StepBudgetExceeded, stepBudget } from './recur-limits.ts';
import { ianaZoneFor, zonedInstant } from './zones.ts';

/** One occurrence of a feed's event, as instants; a series yields one per occurrence in the range. */
export interface IcsEvent {
  uid: string;
  /** The occurrence's original start as an ISO instant (UTC midnight for all-day series); null for a single event. */
  recurrenceId: string | null;
  start: Date;
  end: Date;
  allDay: boolean;
  summary: string;
  description: string;
  location: string;
}

export interface IcsCalendar {
  name: string | null;
  events: IcsEvent[];
  /** Events that could not be read (bad dates, broken rules); the rest of the feed still counts. */
  skipped: number;
  /** True when the feed had more occurrences than `maxEvents`. */
  truncated: boolean;
}

export interface IcsParseOptions {
  /** Occurrences are kept when they overlap [from, to); an endless rule stops at `to`. */
  from: Date;
  to: Date;
  /** Zone for floating times, unknown TZIDs and all-day dates (the team's zone). */
  defaultZone: string;
  maxEvents?: number;
  /** Recurrence steps the whole feed may take (ical.js's inner steps counted); past it the feed is refused. */
  maxSteps?: number;
  /** Past `maxEvents` the feed is refused (`tooManyEntries`) instead of cut short (`truncated`). */
  refuseOverMaxEvents?: boolean;
}

export class IcsParseError extends Error {}

export type IcsLimitReason =
  | 'neverMatches'
  | 'tooManySteps'
  | 'tooManyEntries'
  | 'timeLimit'
  | 'memoryLimit'
  | 'readerFailed';

/** A feed refused for what it would cost to read (hostile or broken rules, too many entries). */
export class IcsLimitError extends IcsParseError {
  constructor(
    readonly reason: IcsLimitReason,
    message: string,
  ) {
    super(message);
  }
}

const textLimit = 4000;
// A daily rule from 1970 reaches 2030 in ~22,000 steps; more is a broken or hostile feed.
const maxStepsPerSeries = 50_000;

/** Drops lines that are neither `NAME[;params]:value` nor folded continuations: one bad line must not lose the feed. */
function sanitize(text: string): string {
  const out: string[] = [];
  let keptLast = false;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (line.startsWith(' ') || line.startsWith('\t')) {
      if (keptLast) out.push(line);
    } else {
      keptLast = /^[A-Za-z0-9-]+[;:]/.test(line);
      if (keptLast) out.push(line);
    }
  }
  return out.join('\r\n');
}

function clip(value: unknown): string {
  return typeof value === 'string' ? value.trim().slice(0, textLimit) : '';
}

function tzidOf(component: ICAL.Component, property: 'dtstart' | 'dtend'): string | null {
  const tzid = component.getFirstProperty(property)?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : null;
}

function instantOf(time: ICAL.Time, tzid: string | null, defaultZone: string): number {
  if (time.isDate) {
    return zonedInstant(
      { year: time.year, month: time.month, day: time.day, hour: 0, minute: 0, second: 0 },
      defaultZone,
    );
  }
  const zone = time.zone;
  // A zone ical.js knows (UTC or the feed's VTIMEZONE) converts itself; the rest is wall-clock time.
  if (zone && zone !== ICAL.Timezone.localTimezone && zone.tzid !== 'floating')
    return time.toUnixTime() * 1000;
  return zonedInstant(time, ianaZoneFor(tzid) ?? defaultZone);
}

function recurrenceKey(time: ICAL.Time, tzid: string | null, defaultZone: string): string {
  if (time.isDate) return new Date(Date.UTC(time.year, time.month - 1, time.day)).toISOString();
  return new Date(instantOf(time, tzid, defaultZone)).toISOString();
}

function isCancelled(component: ICAL.Component): boolean {
  return String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
}

/** What an occurrence takes from its VEVENT (read once per series, not once per occurrence). */
interface ItemFields {
  startTzid: string | null;
  endTzid: string | null;
  summary: string;
  description: string;
  location: string;
}

function fieldsOf(item: ICAL.Event): ItemFields {
  const startTzid = tzidOf(item.component, 'dtstart');
  return {
    startTzid,
    endTzid: tzidOf(item.component, 'dtend') ?? startTzid,
    summary: clip(item.summary),
    description: clip(item.description),
    location: clip(item.location),
  };
}

interface Occurrence {
  fields: ItemFields;
  startDate: ICAL.Time;
  endDate: ICAL.Time;
  recurrenceId: string | null;
  /** The start as an instant when the series' expansion already converted it. */
  startMs?: number;
}

function toEvent(uid: string, o: Occurrence, options: IcsParseOptions): IcsEvent {
  const f = o.fields;
  const start = o.startMs ?? instantOf(o.startDate, f.startTzid, options.defaultZone);
  let end = instantOf(o.endDate, f.endTzid, options.defaultZone);
  if (!(end > start)) end = o.startDate.isDate ? start + 86_400_000 : start;
  return {
    uid,
    recurrenceId: o.recurrenceId,
    start: new Date(start),
    end: new Date(end),
    allDay: o.startDate.isDate,
    summary: f.summary,
    description: f.description,
    location: f.location,
  };
}

function inRange(event: IcsEvent, options: IcsParseOptions): boolean {
  return event.end > options.from && event.start < options.to;
}

function tooManySteps(event: ICAL.Event, fields: ItemFields): IcsLimitError {
  return new IcsLimitError(
    'tooManySteps',
    `The calendar's repeating events take too many steps to expand (stopped at "${fields.summary || event.uid}")`,
  );
}

function* occurrences(
  event: ICAL.Event,
  options: IcsParseOptions,
  budget: { left: number },
): Generator<Occurrence> {
  const masterFields = fieldsOf(event);
  if (!event.isRecurring()) {
    yield { fields: masterFields, startDate: event.startDate, endDate: event.endDate, recurrenceId: null };
    return;
  }
  for (const property of event.component.getAllProperties('rrule')) {
    const why = neverMatchingRule(property.getFirstValue() as ICAL.Recur);
    if (why) {
      throw new IcsLimitError(
        'neverMatches',
        `The event "${masterFields.summary || event.uid}" repeats by a rule that never matches (${why})`,
      );
    }
  }
  const masterTzid = masterFields.startTzid;
  const exceptionFields = new Map<ICAL.Event, ItemFields>();
  const counted = <T>(step: () => T): T => {
    stepBudget.left = budget.left;
    try {
      return step();
    } catch (error) {
      if (error instanceof StepBudgetExceeded) throw tooManySteps(event, masterFields);
      throw error;
    } finally {
      budget.left = stepBudget.left;
      stepBudget.left = Number.POSITIVE_INFINITY;
    }
  };
  // Starting the iterator walks to the first occurrence already.
  const iterator = counted(() => event.iterator());
  const nextOf = () => counted(() => iterator.next());
  let steps = 0;
  for (let next = nextOf(); next; next = nextOf()) {
    if (++steps > maxStepsPerSeries) return;
    // The series' own time decides where it stops, so an endless rule ends at the range's end.
    const at = instantOf(next, masterTzid, options.defaultZone);
    if (at >= options.to.getTime()) return;
    const details = event.getOccurrenceDetails(next);
    let fields = masterFields;
    if (details.item !== event) {
      if (isCancelled(details.item.component)) continue;
      fields = exceptionFields.get(details.item) ?? fieldsOf(details.item);
      exceptionFields.set(details.item, fields);
    }
    yield {
      fields,
      startDate: details.startDate,
      endDate: details.endDate,
      // The occurrence's original start, already converted above (`details.recurrenceId` is `next`).
      recurrenceId: next.isDate
        ? recurrenceKey(next, masterTzid, options.defaultZone)
        : new Date(at).toISOString(),
      // Unmoved occurrences start at `next` itself, in the series' zone.
      startMs: details.startDate === next ? at : undefined,
    };
  }
}

function rootCalendar(text: string): ICAL.Component {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(sanitize(text));
  } catch (error) {
    throw new IcsParseError(`The calendar cannot be read: ${(error as Error).message}`);
  }
  const list = (Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : parsed) as unknown[];
  for (const jcal of Array.isArray(list) ? list : []) {
    const component = new ICAL.Component(jcal as unknown[]);
    if (component.name === 'vcalendar') return component;
  }
  throw new IcsParseError('The address does not return a calendar');
}

/**
 * ical.js looks a TZID up in the feed's VTIMEZONEs on every date it reads and caches only hits;
 * a TZID without a VTIMEZONE (IANA or Windows names) rescans every component each time, which
 * made a 3,000-event feed take 35 s. Caching the misses as "none" keeps it linear.
 */
function cacheMissingZones(root: ICAL.Component, text: string): void {
  const cache = (root as unknown as { _timezoneCache?: Map<string, ICAL.Timezone | null> | null })
    ._timezoneCache;
  if (!cache) return;
  const defined = new Set(
    root.getAllSubcomponents('vtimezone').map((z) => String(z.getFirstPropertyValue('tzid'))),
  );
  for (const match of text.matchAll(/;TZID=("?)([^":;\r\n]+)\1[:;]/gi)) {
    if (!defined.has(match[2]) && !cache.has(match[2])) cache.set(match[2], null);
  }
}

/** A feed read up to its components; its occurrences are expanded as `events` is walked. */
export interface IcsReader {
  name: string | null;
  /** The occurrences within the range and the event cap, in the feed's order of series. */
  events: Generator<IcsEvent, void, undefined>;
  /** Complete once `events` is done. */
  readonly skipped: number;
  readonly truncated: boolean;
}

/**
 * Reads a feed's components now (a feed that is no calendar throws here) and expands its series
 * lazily, so that a caller can store some occurrences while the next ones are being expanded.
 */
export function readIcs(text: string, options: IcsParseOptions): IcsReader {
  const root = rootCalendar(text);
  cacheMissingZones(root, text);
  const maxEvents = options.maxEvents ?? 100_000;
  const budget = { left: options.maxSteps ?? defaultMaxSteps };
  const masters = new Map<string, ICAL.Component>();
  const overrides = new Map<string, ICAL.Component[]>();
  const state = { skipped: 0, truncated: false };
  for (const component of root.getAllSubcomponents('vevent')) {
    const uid = clip(component.getFirstPropertyValue('uid'));
    if (!uid || !component.hasProperty('dtstart')) {
      state.skipped++;
      continue;
    }
    if (component.hasProperty('recurrence-id')) {
      const list = overrides.get(uid);
      if (list) list.push(component);
      else overrides.set(uid, [component]);
    } else if (!masters.has(uid)) masters.set(uid, component);
  }

  function* expand(): Generator<IcsEvent, void, undefined> {
    for (const [uid, master] of masters) {
      try {
        if (isCancelled(master)) continue;
        // Exceptions handed in: left alone, ical.js scans every VEVENT of the feed per series (quadratic).
        const event = new ICAL.Event(master, {
          exceptions: overrides.get(uid) ?? [],
          strictExceptions: true,
        });
        overrides.delete(uid);
        for (const occurrence of occurrences(event, options, budget)) yield toEvent(uid, occurrence, options);
      } catch (error) {
        // A rule that never matches or a feed over its budget refuses the feed, not one series.
        if (error instanceof IcsLimitError) throw error;
        state.skipped++;
      }
    }
    // Overrides whose series is not in the feed (an invitation to one occurrence) stand alone.
    for (const [uid, list] of overrides) {
      for (const component of list) {
        let event: IcsEvent;
        try {
          if (isCancelled(component)) continue;
          const item = new ICAL.Event(component);
          const fields = fieldsOf(item);
          const recurrenceId = recurrenceKey(item.recurrenceId, fields.startTzid, options.defaultZone);
          const occurrence = { fields, startDate: item.startDate, endDate: item.endDate, recurrenceId };
          event = toEvent(uid, occurrence, options);
        } catch {
          state.skipped++;
          continue;
        }
        yield event;
      }
    }
  }

  function* kept(): Generator<IcsEvent, void, undefined> {
    let count = 0;
    for (const event of expand()) {
      if (!inRange(event, options)) continue;
      if (count >= maxEvents) {
        if (options.refuseOverMaxEvents) {
          throw new IcsLimitError(
            'tooManyEntries',
            `The calendar has more than ${maxEvents} entries in the imported range`,
          );
        }
        state.truncated = true;
        return;
      }
      count++;
      yield event;
    }
  }

  return {
    name: clip(root.getFirstPropertyValue('x-wr-calname')) || null,
    events: kept(),
    get skipped() {
      return state.skipped;
    },
    get truncated() {
      return state.truncated;
    },
  };
}

/** Reads a feed into plain occurrences within the range; series are expanded with their exceptions. */
export function parseIcs(text: string, options: IcsParseOptions): IcsCalendar {
  const reader = readIcs(text, options);
  const events = [...reader.events];
  return { name: reader.name, events, skipped: reader.skipped, truncated: reader.truncated };
}
