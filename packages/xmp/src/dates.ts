// Date and time conversions between the forms the engine meets: XMP (ISO 8601 subset),
// IPTC-IIM (CCYYMMDD + HHMMSS±HHMM), EXIF (YYYY:MM:DD HH:MM:SS) and what people type
// (DD.MM.YYYY HH:mm, spec §9), plus token formatting for the {date} and {time} variables.

export interface DateParts {
  year: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  /** Digits after the decimal point of the seconds. */
  fraction?: string;
  /** 'Z' or '+hh:mm' / '-hh:mm'. */
  zone?: string;
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

function inRange(parts: DateParts): boolean {
  const { month, day, hour, minute, second } = parts;
  return (
    (month === undefined || (month >= 1 && month <= 12)) &&
    (day === undefined || (day >= 1 && day <= 31)) &&
    (hour === undefined || hour <= 23) &&
    (minute === undefined || minute <= 59) &&
    (second === undefined || second <= 60)
  );
}

function normalizeZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  if (zone === 'Z') return 'Z';
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  return match ? `${match[1]}${match[2]}:${match[3]}` : undefined;
}

const xmpDate =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/;

const num = (text: string | undefined): number | undefined => (text === undefined ? undefined : Number(text));

export function parseXmpDate(value: string): DateParts | undefined {
  const m = xmpDate.exec(value.trim());
  if (!m) return undefined;
  const parts: DateParts = { year: Number(m[1]) };
  if (m[2] !== undefined) parts.month = Number(m[2]);
  if (m[3] !== undefined) parts.day = Number(m[3]);
  if (m[4] !== undefined) {
    parts.hour = num(m[4]);
    parts.minute = num(m[5]);
  }
  if (m[6] !== undefined) parts.second = Number(m[6]);
  if (m[7] !== undefined) parts.fraction = m[7];
  const zone = normalizeZone(m[8]);
  if (zone) parts.zone = zone;
  return inRange(parts) ? parts : undefined;
}

export function formatXmpDate(parts: DateParts): string {
  let out = pad(parts.year, 4);
  if (parts.month === undefined) return out;
  out += `-${pad(parts.month)}`;
  if (parts.day === undefined) return out;
  out += `-${pad(parts.day)}`;
  if (parts.hour === undefined) return out;
  out += `T${pad(parts.hour)}:${pad(parts.minute ?? 0)}`;
  if (parts.second !== undefined) {
    out += `:${pad(parts.second)}`;
    if (parts.fraction) out += `.${parts.fraction}`;
  }
  return out + (parts.zone ?? '');
}

export function formatIimDate(parts: DateParts): string {
  return `${pad(parts.year, 4)}${pad(parts.month ?? 0)}${pad(parts.day ?? 0)}`;
}

export function formatIimTime(parts: DateParts): string | undefined {
  if (parts.hour === undefined) return undefined;
  const time = `${pad(parts.hour)}${pad(parts.minute ?? 0)}${pad(parts.second ?? 0)}`;
  if (!parts.zone) return time;
  return parts.zone === 'Z' ? `${time}+0000` : `${time}${parts.zone.replace(':', '')}`;
}

/** IIM 2:55 (+ 2:60) to an XMP date; undefined when 2:55 is not CCYYMMDD. */
export function parseIimDateTime(date: string, time: string | undefined): string | undefined {
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(date);
  if (!d) return undefined;
  const parts: DateParts = { year: Number(d[1]) };
  // IIM writes 00 for an unknown month or day.
  if (d[2] !== '00') parts.month = Number(d[2]);
  if (parts.month !== undefined && d[3] !== '00') parts.day = Number(d[3]);
  const t = time ? /^(\d{2})(\d{2})(\d{2})([+-]\d{4})?$/.exec(time) : null;
  if (t && parts.day !== undefined) {
    parts.hour = Number(t[1]);
    parts.minute = Number(t[2]);
    parts.second = Number(t[3]);
    const zone = normalizeZone(t[4]);
    if (zone) parts.zone = zone;
  }
  return inRange(parts) ? formatXmpDate(parts) : undefined;
}

/** EXIF DateTimeOriginal (+ OffsetTimeOriginal, SubSecTimeOriginal). */
export function parseExifDateTime(
  value: string,
  offset?: string,
  subSeconds?: string,
): DateParts | undefined {
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!m) return undefined;
  const parts: DateParts = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6]),
  };
  if (parts.year === 0 || parts.month === 0) return undefined; // "0000:00:00 00:00:00" means unknown
  const fraction = subSeconds?.trim();
  if (fraction && /^\d+$/.test(fraction)) parts.fraction = fraction;
  const zone = normalizeZone(offset?.trim());
  if (zone) parts.zone = zone;
  return inRange(parts) ? parts : undefined;
}

/**
 * A date typed by a person or produced by a variable, as XMP wants it. Accepts XMP/ISO,
 * EXIF style (2025:11:03 14:05:00) and the German form of spec §9 (03.11.2025 14:05).
 */
export function normalizeDateInput(value: string): string | undefined {
  const trimmed = value.trim();
  const xmp = parseXmpDate(trimmed);
  if (xmp) return formatXmpDate(xmp);
  const exif = parseExifDateTime(trimmed);
  if (exif) return formatXmpDate(exif);
  const exifDate = /^(\d{4}):(\d{2}):(\d{2})$/.exec(trimmed);
  if (exifDate) return normalizeDateInput(`${exifDate[1]}-${exifDate[2]}-${exifDate[3]}`);
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(trimmed);
  if (!german) return undefined;
  const parts: DateParts = { year: Number(german[3]), month: Number(german[2]), day: Number(german[1]) };
  if (german[4] !== undefined) {
    parts.hour = Number(german[4]);
    parts.minute = Number(german[5]);
    if (german[6] !== undefined) parts.second = Number(german[6]);
  }
  return inRange(parts) ? formatXmpDate(parts) : undefined;
}

/** Formats with the tokens YYYY YY MM M DD D HH H mm m ss s (as moment/dayjs write them). */
export function formatDateTokens(parts: DateParts, format: string): string {
  const values: Record<string, string> = {
    YYYY: pad(parts.year, 4),
    YY: pad(parts.year % 100),
    MM: pad(parts.month ?? 0),
    M: String(parts.month ?? 0),
    DD: pad(parts.day ?? 0),
    D: String(parts.day ?? 0),
    HH: pad(parts.hour ?? 0),
    H: String(parts.hour ?? 0),
    mm: pad(parts.minute ?? 0),
    m: String(parts.minute ?? 0),
    ss: pad(parts.second ?? 0),
    s: String(parts.second ?? 0),
  };
  return format.replace(/YYYY|YY|MM|M|DD|D|HH|H|mm|m|ss|s/g, (token) => values[token] ?? token);
}
