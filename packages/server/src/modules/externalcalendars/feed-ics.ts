import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';

/**
 * Writes an iCalendar feed (RFC 5545) for calendar apps: CRLF lines folded at 75 octets (never
 * inside a UTF-8 sequence), TEXT values escaped, times in UTC, all-day events as DATE values in
 * the team's zone. Google Calendar, Apple Calendar and Thunderbird read this subset.
 */

export interface FeedEvent {
  uid: string;
  start: Date;
  end: Date;
  allDay: boolean;
  summary: string;
  description: string;
  location: string;
  status: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';
  updatedAt: Date;
  categories?: string;
}

export function escapeText(value: string): string {
  return (
    value
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n')
      .split('')
      // RFC 5545 TEXT allows no control characters but HTAB (newlines are escaped above).
      .filter((ch) => ch === '\t' || (ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f))
      .join('')
  );
}

/** Splits a content line into 75-octet pieces; continuation lines start with one space. */
export function foldLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Back off to the start of a UTF-8 character (continuation bytes are 10xxxxxx).
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74; // the leading space counts
  }
  return parts.join('\r\n ');
}

const utc = (d: Date) => `${d.toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;
const localDate = (d: Date, zone: string) => format(new TZDate(d.getTime(), zone), 'yyyyMMdd');

export function writeFeed(options: {
  name: string;
  zone: string;
  events: readonly FeedEvent[];
  now?: Date;
}): string {
  const stamp = utc(options.now ?? new Date());
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//PhotoRelay//Calendar feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.name)}`,
    `X-WR-TIMEZONE:${options.zone}`,
    // Clients poll subscriptions at their own pace; this asks for hourly.
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ];
  for (const e of options.events) {
    lines.push('BEGIN:VEVENT', `UID:${escapeText(e.uid)}`, `DTSTAMP:${stamp}`);
    if (e.allDay) {
      const end = e.end > e.start ? e.end : new Date(e.start.getTime() + 86_400_000);
      lines.push(`DTSTART;VALUE=DATE:${localDate(e.start, options.zone)}`);
      lines.push(`DTEND;VALUE=DATE:${localDate(end, options.zone)}`);
    } else {
      lines.push(`DTSTART:${utc(e.start)}`, `DTEND:${utc(e.end > e.start ? e.end : e.start)}`);
    }
    lines.push(`LAST-MODIFIED:${utc(e.updatedAt)}`, `SUMMARY:${escapeText(e.summary)}`);
    if (e.description) lines.push(`DESCRIPTION:${escapeText(e.description)}`);
    if (e.location) lines.push(`LOCATION:${escapeText(e.location)}`);
    if (e.categories) lines.push(`CATEGORIES:${escapeText(e.categories)}`);
    lines.push(`STATUS:${e.status}`, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
