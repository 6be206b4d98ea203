import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ICAL from 'ical.js';
import { inZone } from './time.ts';

// The .ics of an event invitation (issue 27 item 5; iMIP, RFC 6047): METHOD:REQUEST (CANCEL for a
// cancelled event or booking, with STATUS:CANCELLED; event-mails.ts) with the
// event in the team's time zone (its VTIMEZONE from @touch4it/ical-timezones, the tzurl.org
// rules), the team as ORGANIZER (the invitation's reply address) and the photographer as the one
// ATTENDEE asked to answer. Built with ical.js, which escapes and folds.

export interface InvitationEvent {
  /** The same UID as in the member's calendar feed, so the app keeps one event. */
  uid: string;
  /** Rises with every change of the event (the entry's version). */
  sequence: number;
  start: Date;
  end: Date;
  allDay: boolean;
  summary: string;
  description: string;
  location: string;
  zone: string;
}

export interface InvitationParties {
  organizer: { name: string; address: string };
  attendee: { name: string; address: string };
}

/** The zone's VTIMEZONE, or null for a zone the rules do not know (then the times go out in UTC). */
const zoneTexts = new Map<string, string | null>();
function timezoneOf(zone: string) {
  // The package reads the zone's file synchronously on every call: once per zone is enough.
  if (!zoneTexts.has(zone)) zoneTexts.set(zone, getVtimezoneComponent(zone));
  const text = zoneTexts.get(zone);
  if (!text) return null;
  const component = new ICAL.Component(ICAL.parse(text));
  return { component, timezone: new ICAL.Timezone(component) };
}

function wallClock(instant: Date, zone: string, timezone: ICAL.Timezone) {
  const [date, time] = inZone(instant, zone).iso.split('T');
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute, second] = time.slice(0, 8).split(':').map(Number);
  return ICAL.Time.fromData({ year, month, day, hour, minute, second }, timezone);
}

function allDayDate(instant: Date, zone: string) {
  return ICAL.Time.fromDateString(inZone(instant, zone).day);
}

export function invitationIcs(
  event: InvitationEvent,
  parties: InvitationParties,
  method: 'REQUEST' | 'CANCEL' = 'REQUEST',
  now = new Date(),
): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.updatePropertyWithValue('prodid', '-//PhotoRelay//Event invitation//EN');
  calendar.updatePropertyWithValue('version', '2.0');
  calendar.updatePropertyWithValue('calscale', 'GREGORIAN');
  calendar.updatePropertyWithValue('method', method);

  const zone = event.allDay ? null : timezoneOf(event.zone);
  if (zone) calendar.addSubcomponent(zone.component);

  const vevent = new ICAL.Component('vevent');
  const wrapped = new ICAL.Event(vevent);
  wrapped.uid = event.uid;
  vevent.updatePropertyWithValue('dtstamp', ICAL.Time.fromJSDate(now, true));
  wrapped.sequence = event.sequence;
  const end = event.end > event.start ? event.end : event.start;
  if (event.allDay) {
    const lastDay = event.end > event.start ? event.end : new Date(event.start.getTime() + 86_400_000);
    wrapped.startDate = allDayDate(event.start, event.zone);
    wrapped.endDate = allDayDate(lastDay, event.zone);
  } else if (zone) {
    wrapped.startDate = wallClock(event.start, event.zone, zone.timezone);
    wrapped.endDate = wallClock(end, event.zone, zone.timezone);
  } else {
    wrapped.startDate = ICAL.Time.fromJSDate(event.start, true);
    wrapped.endDate = ICAL.Time.fromJSDate(end, true);
  }
  wrapped.summary = event.summary;
  if (event.location) wrapped.location = event.location;
  if (event.description) wrapped.description = event.description;
  vevent.updatePropertyWithValue('status', method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED');
  vevent.updatePropertyWithValue('transp', 'OPAQUE');

  const organizer = vevent.addPropertyWithValue('organizer', `mailto:${parties.organizer.address}`);
  organizer.setParameter('cn', parties.organizer.name);
  const attendee = vevent.addPropertyWithValue('attendee', `mailto:${parties.attendee.address}`);
  if (parties.attendee.name) attendee.setParameter('cn', parties.attendee.name);
  attendee.setParameter('role', 'REQ-PARTICIPANT');
  // A cancellation asks for no answer (RFC 5546 3.2.5); a request (also an update) does.
  if (method === 'REQUEST') {
    attendee.setParameter('partstat', 'NEEDS-ACTION');
    attendee.setParameter('rsvp', 'TRUE');
  }
  calendar.addSubcomponent(vevent);
  return calendar.toString();
}
