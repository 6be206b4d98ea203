// Number, size and time formats shared by the screens (spec §9: sizes as B below 1024, else KB).

const numberFormats = new Map<string, Intl.NumberFormat>();
const numberFormat = (language: string, fractionDigits: number) => {
  const key = `${language}:${fractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, {
      maximumFractionDigits: fractionDigits,
      minimumFractionDigits: 0,
    });
    numberFormats.set(key, format);
  }
  return format;
};

export const formatNumber = (value: number, language: string) => numberFormat(language, 0).format(value);

/** Spec §9: 'B' below 1024 bytes, otherwise KB (with grouping, one decimal below 100 KB). */
export function formatSize(bytes: number, language: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '–';
  if (bytes < 1024) return `${numberFormat(language, 0).format(Math.round(bytes))} B`;
  const kb = bytes / 1024;
  return `${numberFormat(language, kb < 100 ? 1 : 0).format(kb)} KB`;
}

/** Spec §9: upload speed per second; null when it cannot be told (no duration yet). */
export function formatSpeed(bytes: number, durationMs: number | null, language: string): string | null {
  if (durationMs === null || !Number.isFinite(durationMs) || durationMs < 0) return null;
  // A transfer faster than the clock's resolution still took some time.
  const seconds = Math.max(durationMs, 1) / 1000;
  return `${formatSize(bytes / seconds, language)}/s`;
}

/** A duration in ms as '850 ms', '12.3 s' or '2:05 min'. */
export function formatDuration(ms: number | null, language: string): string | null {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return null;
  if (ms < 1000) return `${numberFormat(language, 0).format(ms)} ms`;
  if (ms < 60_000) return `${numberFormat(language, 1).format(ms / 1000)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')} min`;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(language: string, withSeconds: boolean) {
  const key = `${language}:${withSeconds}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...(withSeconds ? { second: '2-digit' } : {}),
    });
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** Date and time as DD.MM.YYYY, HH:mm (spec §9's display) in German, DD/MM/YYYY, HH:mm in English. */
export function formatDateTime(value: string | Date, language: string, withSeconds = false): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '–';
  return dateTimeFormat(language, withSeconds).format(date);
}

// A locale format made once per language and kind: toLocaleTimeString(locale, options) and a new
// Intl format object set up the locale's rules on every call (issue 28 item 8: tens of ms on a
// list of pictures).
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function cachedDateFormat(key: string, language: string, options: Intl.DateTimeFormatOptions) {
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', options);
    dateFormats.set(key, format);
  }
  return format;
}
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/** Time of day as HH:mm:ss. */
export function formatTime(value: string | Date, language: string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '–';
  return cachedDateFormat(`time:${language}`, language, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(date);
}

/** 'in 12 seconds' / 'in 12 Sekunden'; 'now' / 'jetzt' once the moment has come. */
export function formatTimeUntil(target: string | Date, now: number, language: string): string {
  const at = (typeof target === 'string' ? new Date(target) : target).getTime();
  const seconds = Math.max(0, Math.round((at - now) / 1000));
  let format = relativeFormats.get(language);
  if (!format) {
    format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
    relativeFormats.set(language, format);
  }
  if (seconds < 60) return format.format(seconds, 'second');
  if (seconds < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (seconds < 86_400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}

/** For busy tables: the time alone when it is today, else day, month and time. */
export function formatCompactDateTime(value: string | Date, now: number, language: string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '–';
  if (date.toDateString() === new Date(now).toDateString()) return formatTime(date, language);
  return cachedDateFormat(`compact:${language}`, language, {
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(date);
}
