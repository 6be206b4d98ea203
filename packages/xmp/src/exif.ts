// Reads the few EXIF values the variables need (capture time, camera, serial, lens, ISO) from
// an APP1 "Exif" payload, and rewrites the three IFD0 texts that mirror XMP (ImageDescription,
// Artist, Copyright) through exif-write.ts. Every offset is bounds-checked, so a damaged EXIF
// block yields fewer values, never an exception.
import { type ExifGps, parseExifGps } from './exif-gps.ts';
import { decodeUtf8OrLegacy } from './text-encoding.ts';

export interface ExifBasics extends ExifGps {
  dateTimeOriginal?: string;
  offsetTimeOriginal?: string;
  subSecTimeOriginal?: string;
  make?: string;
  model?: string;
  bodySerialNumber?: string;
  lensModel?: string;
  iso?: number;
}

export const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');

const TAG_IMAGE_DESCRIPTION = 0x010e;
const TAG_ARTIST = 0x013b;
const TAG_COPYRIGHT = 0x8298;
const TAG_MAKE = 0x010f;
const TAG_MODEL = 0x0110;
const TAG_EXIF_IFD = 0x8769;
const TAG_GPS_IFD = 0x8825;
const TAG_ISO = 0x8827;
const TAG_DATE_TIME_ORIGINAL = 0x9003;
const TAG_OFFSET_TIME_ORIGINAL = 0x9011;
const TAG_SUBSEC_TIME_ORIGINAL = 0x9291;
const TAG_BODY_SERIAL = 0xa431;
const TAG_LENS_MODEL = 0xa434;

export const typeSizes: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
};
const MAX_ENTRIES = 1000;

export interface Entry {
  /** Offset of the 12-byte entry itself inside the TIFF block. */
  entryAt: number;
  type: number;
  count: number;
  /** Offset of the value inside the TIFF block. */
  valueAt: number;
}

export class Tiff {
  readonly little: boolean;

  constructor(readonly buf: Buffer) {
    const order = buf.toString('latin1', 0, 2);
    if (order !== 'II' && order !== 'MM') throw new Error('not TIFF');
    this.little = order === 'II';
  }

  u16(at: number): number | undefined {
    if (at < 0 || at + 2 > this.buf.length) return undefined;
    return this.little ? this.buf.readUInt16LE(at) : this.buf.readUInt16BE(at);
  }

  u32(at: number): number | undefined {
    if (at < 0 || at + 4 > this.buf.length) return undefined;
    return this.little ? this.buf.readUInt32LE(at) : this.buf.readUInt32BE(at);
  }

  entries(ifdAt: number): Map<number, Entry> {
    const entries = new Map<number, Entry>();
    const count = this.u16(ifdAt);
    if (count === undefined || count > MAX_ENTRIES) return entries;
    for (let i = 0; i < count; i++) {
      const at = ifdAt + 2 + i * 12;
      const tag = this.u16(at);
      const type = this.u16(at + 2);
      const n = this.u32(at + 4);
      if (tag === undefined || type === undefined || n === undefined) break;
      const size = (typeSizes[type] ?? 0) * n;
      const valueAt = size <= 4 ? at + 8 : this.u32(at + 8);
      if (valueAt === undefined || size === 0 || valueAt + size > this.buf.length) continue;
      entries.set(tag, { entryAt: at, type, count: n, valueAt });
    }
    return entries;
  }

  ascii(entry: Entry | undefined): string | undefined {
    if (!entry || (entry.type !== 2 && entry.type !== 7)) return undefined;
    const raw = this.buf.subarray(entry.valueAt, entry.valueAt + entry.count);
    const nul = raw.indexOf(0);
    // EXIF says ASCII; cameras write UTF-8 or Latin-1 owner names.
    const text = decodeUtf8OrLegacy(raw.subarray(0, nul < 0 ? raw.length : nul)).trim();
    return text === '' ? undefined : text;
  }

  integer(entry: Entry | undefined): number | undefined {
    if (!entry) return undefined;
    if (entry.type === 3) return this.u16(entry.valueAt);
    if (entry.type === 4) return this.u32(entry.valueAt);
    return undefined;
  }
}

/** Values from an APP1 payload that starts with "Exif\0\0" (or from the TIFF block alone). */
export function parseExifBasics(payload: Uint8Array): ExifBasics {
  const buf = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  const tiffBlock = buf.subarray(0, 6).equals(EXIF_HEADER) ? buf.subarray(6) : buf;
  const result: ExifBasics = {};
  let tiff: Tiff;
  try {
    tiff = new Tiff(tiffBlock);
  } catch {
    return result;
  }
  const ifd0At = tiff.u32(4);
  if (ifd0At === undefined) return result;
  const ifd0 = tiff.entries(ifd0At);
  const set = <K extends keyof ExifBasics>(key: K, value: ExifBasics[K] | undefined): void => {
    if (value !== undefined) result[key] = value;
  };
  set('make', tiff.ascii(ifd0.get(TAG_MAKE)));
  set('model', tiff.ascii(ifd0.get(TAG_MODEL)));
  const exifEntry = ifd0.get(TAG_EXIF_IFD);
  const exifAt = tiff.integer(exifEntry);
  if (exifAt !== undefined && exifAt !== ifd0At) {
    const exif = tiff.entries(exifAt);
    set('dateTimeOriginal', tiff.ascii(exif.get(TAG_DATE_TIME_ORIGINAL)));
    set('offsetTimeOriginal', tiff.ascii(exif.get(TAG_OFFSET_TIME_ORIGINAL)));
    set('subSecTimeOriginal', tiff.ascii(exif.get(TAG_SUBSEC_TIME_ORIGINAL)));
    set('bodySerialNumber', tiff.ascii(exif.get(TAG_BODY_SERIAL)));
    set('lensModel', tiff.ascii(exif.get(TAG_LENS_MODEL)));
    set('iso', tiff.integer(exif.get(TAG_ISO)));
  }
  // Some cameras write the GPS pointer as SLONG (Canon PowerShot S5 IS).
  const gpsEntry = ifd0.get(TAG_GPS_IFD);
  const gpsAt = gpsEntry?.type === 9 ? tiff.u32(gpsEntry.valueAt) : tiff.integer(gpsEntry);
  if (gpsAt !== undefined && gpsAt !== ifd0At) Object.assign(result, parseExifGps(tiff, gpsAt));
  return result;
}

/** New texts for the IFD0 fields that mirror XMP; '' empties a field. */
export interface ExifTextUpdates {
  /** dc:description */
  imageDescription?: string;
  /** dc:creator, joined with "; " */
  artist?: string;
  /** dc:rights */
  copyright?: string;
}

/** The mirrored texts as they are (fields the camera did not write are absent). */
export function readExifTexts(payload: Uint8Array): ExifTextUpdates {
  const buf = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  const result: ExifTextUpdates = {};
  try {
    const tiff = new Tiff(buf.subarray(0, 6).equals(EXIF_HEADER) ? buf.subarray(6) : buf);
    const ifd0At = tiff.u32(4);
    if (ifd0At === undefined) return result;
    const ifd0 = tiff.entries(ifd0At);
    for (const [key, tag] of textTags) {
      const entry = ifd0.get(tag);
      if (entry) result[key] = tiff.ascii(entry) ?? '';
    }
  } catch {
    // not TIFF: no texts
  }
  return result;
}

export const textTags: Array<[keyof ExifTextUpdates, number, string]> = [
  ['imageDescription', TAG_IMAGE_DESCRIPTION, 'ImageDescription'],
  ['artist', TAG_ARTIST, 'Artist'],
  ['copyright', TAG_COPYRIGHT, 'Copyright'],
];
