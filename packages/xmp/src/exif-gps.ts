// The GPS IFD's position and time (EXIF 2.3 §4.6.6) as a script reads them: latitude and
// longitude in decimal degrees, negative south and west; altitude in metres, negative below sea
// level; the UTC time 'HH:MM:SS' and date 'YYYY:MM:DD'. Bounds-checked like exif.ts: a damaged
// GPS block yields fewer values.
import type { Entry, Tiff } from './exif.ts';

export interface ExifGps {
  gpsLatitude?: number;
  gpsLongitude?: number;
  gpsAltitude?: number;
  gpsTimeStamp?: string;
  gpsDateStamp?: string;
}

const TAG_LATITUDE_REF = 0x01;
const TAG_LATITUDE = 0x02;
const TAG_LONGITUDE_REF = 0x03;
const TAG_LONGITUDE = 0x04;
const TAG_ALTITUDE_REF = 0x05;
const TAG_ALTITUDE = 0x06;
const TAG_TIME_STAMP = 0x07;
const TAG_DATE_STAMP = 0x1d;

/** The rationals of an entry (RATIONAL or SRATIONAL); undefined when one has a zero denominator. */
function rationals(tiff: Tiff, entry: Entry | undefined, count: number): number[] | undefined {
  if (!entry || (entry.type !== 5 && entry.type !== 10) || entry.count < count) return undefined;
  const values: number[] = [];
  for (let i = 0; i < count; i++) {
    const at = entry.valueAt + i * 8;
    let num = tiff.u32(at);
    let den = tiff.u32(at + 4);
    if (num === undefined || den === undefined || den === 0) return undefined;
    if (entry.type === 10) {
      num |= 0;
      den |= 0;
    }
    values.push(num / den);
  }
  return values;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

function degrees(tiff: Tiff, value: Entry | undefined, ref: Entry | undefined, negative: string) {
  const dms = rationals(tiff, value, 3);
  if (!dms) return undefined;
  const [d = 0, m = 0, s = 0] = dms;
  const sign = tiff.ascii(ref)?.toUpperCase() === negative ? -1 : 1;
  // 7 decimals: about a centimetre.
  return sign * round(d + m / 60 + s / 3600, 7);
}

export function parseExifGps(tiff: Tiff, ifdAt: number): ExifGps {
  const gps = tiff.entries(ifdAt);
  const result: ExifGps = {};
  const latitude = degrees(tiff, gps.get(TAG_LATITUDE), gps.get(TAG_LATITUDE_REF), 'S');
  if (latitude !== undefined && Math.abs(latitude) <= 90) result.gpsLatitude = latitude;
  const longitude = degrees(tiff, gps.get(TAG_LONGITUDE), gps.get(TAG_LONGITUDE_REF), 'W');
  if (longitude !== undefined && Math.abs(longitude) <= 180) result.gpsLongitude = longitude;
  const altitude = rationals(tiff, gps.get(TAG_ALTITUDE), 1)?.[0];
  const altitudeRef = gps.get(TAG_ALTITUDE_REF);
  const below = altitudeRef?.type === 1 && tiff.buf[altitudeRef.valueAt] === 1;
  if (altitude !== undefined) result.gpsAltitude = round(below ? -altitude : altitude, 3);
  const time = rationals(tiff, gps.get(TAG_TIME_STAMP), 3);
  if (time?.every((v) => v >= 0 && v < 61)) {
    const [h = 0, m = 0, s = 0] = time;
    const two = (n: number) => String(Math.floor(n)).padStart(2, '0');
    const fraction = round(s % 1, 3);
    result.gpsTimeStamp = `${two(h)}:${two(m)}:${two(s)}${fraction > 0 ? String(fraction).slice(1) : ''}`;
  }
  // 'YYYY:MM:DD'; some cameras append the time.
  const date = /^\d{4}:\d{2}:\d{2}/.exec(tiff.ascii(gps.get(TAG_DATE_STAMP)) ?? '')?.[0];
  if (date) result.gpsDateStamp = date;
  return result;
}
