// Test support (not part of the public API): damages the IFD0 text entries of a JPEG's Exif
// block the way broken cameras and archive software do (shared, overlapping offsets, values that
// point into IFD tables, wrong counts), and lists every EXIF tag's value bytes so a test can
// check that stamping changed nothing but the mirrored texts.
import { EXIF_HEADER, Tiff, typeSizes } from './exif.ts';

const APP1 = 0xe1;
export const MIRRORED_TAGS = [0x010e, 0x013b, 0x8298];
const pointerTags = new Map([
  [0x8769, 'ExifIFD'],
  [0x8825, 'GPS'],
  [0xa005, 'Interop'],
]);

type Random = () => number;
const int = (random: Random, max: number): number => Math.floor(random() * max);
const pick = <T>(random: Random, items: readonly T[]): T => items[int(random, items.length)] as T;

/** File offset of the TIFF block of the first Exif APP1 segment, and its length. */
export function exifBlock(jpeg: Buffer): { start: number; length: number } | undefined {
  let pos = 2;
  while (pos + 4 <= jpeg.length && jpeg[pos] === 0xff && jpeg[pos + 1] !== 0xda) {
    const length = jpeg.readUInt16BE(pos + 2);
    if (jpeg[pos + 1] === APP1 && jpeg.subarray(pos + 4, pos + 10).equals(EXIF_HEADER))
      return { start: pos + 10, length: length - 8 };
    pos += 2 + length;
  }
  return undefined;
}

interface Raw {
  at: number;
  tag: number;
  type: number;
  count: number;
  size: number;
  valueAt: number;
}

function ifdEntries(tiff: Tiff, at: number): Raw[] {
  const count = tiff.u16(at) ?? 0;
  const out: Raw[] = [];
  for (let i = 0; i < Math.min(count, 1000); i++) {
    const entryAt = at + 2 + i * 12;
    const tag = tiff.u16(entryAt);
    const type = tiff.u16(entryAt + 2);
    const n = tiff.u32(entryAt + 4);
    if (tag === undefined || type === undefined || n === undefined) break;
    const size = (typeSizes[type] ?? 0) * n;
    out.push({
      at: entryAt,
      tag,
      type,
      count: n,
      size,
      valueAt: size <= 4 ? entryAt + 8 : (tiff.u32(entryAt + 8) ?? 0),
    });
  }
  return out;
}

/**
 * Every readable tag of IFD0, IFD1, the Exif, GPS and Interop IFDs as "IFD tag" -> type, count
 * and value bytes (out-of-range values as "out of range"). The mirrored IFD0 texts are left out.
 */
export function exifTagValues(payload: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let tiff: Tiff;
  try {
    tiff = new Tiff(payload.subarray(6));
  } catch {
    return out;
  }
  const queue: Array<[string, number]> = [];
  const ifd0 = tiff.u32(4);
  if (ifd0 !== undefined) queue.push(['IFD0', ifd0]);
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < 16) {
    const [name, at] = queue.shift() as [string, number];
    if (seen.has(name)) continue;
    seen.add(name);
    const entries = ifdEntries(tiff, at);
    const tableEnd = at + 2 + entries.length * 12;
    for (const entry of entries) {
      if (name === 'IFD0' && MIRRORED_TAGS.includes(entry.tag)) continue;
      // Readers refuse a value inside its own IFD table or the header (ExifTool: "Suspicious offset").
      const suspicious =
        entry.size > 4 &&
        (entry.valueAt < 8 || (entry.valueAt < tableEnd && entry.valueAt + entry.size > at));
      if (suspicious) continue;
      const inRange = entry.size > 0 && entry.valueAt + entry.size <= tiff.buf.length;
      const bytes = inRange
        ? tiff.buf.toString('hex', entry.valueAt, entry.valueAt + entry.size)
        : 'out of range';
      out.set(`${name} ${entry.tag.toString(16)}`, `${entry.type} ${entry.count} ${bytes}`);
      const child = pointerTags.get(entry.tag);
      if (child && inRange && (entry.type === 4 || entry.type === 13))
        queue.push([child, tiff.u32(entry.valueAt) ?? 0]);
    }
    const next = tiff.u32(at + 2 + entries.length * 12);
    if (name === 'IFD0' && next) queue.push(['IFD1', next]);
  }
  return out;
}

/** Damages the IFD0 text entries of the file's Exif block in place (same length); undefined without Exif. */
export function damageExif(random: Random, input: Buffer): Buffer | undefined {
  const block = exifBlock(input);
  if (!block) return undefined;
  const out = Buffer.from(input);
  const view = out.subarray(block.start, block.start + block.length);
  let tiff: Tiff;
  try {
    tiff = new Tiff(view);
  } catch {
    return undefined;
  }
  const ifd0At = tiff.u32(4) ?? 0;
  const entries = ifdEntries(tiff, ifd0At);
  if (entries.length === 0) return undefined;
  const put16 = (value: number, at: number): void => {
    if (at + 2 <= view.length) tiff.little ? view.writeUInt16LE(value, at) : view.writeUInt16BE(value, at);
  };
  const put32 = (value: number, at: number): void => {
    if (at + 4 <= view.length)
      tiff.little ? view.writeUInt32LE(value >>> 0, at) : view.writeUInt32BE(value >>> 0, at);
  };
  let texts = entries.filter((entry) => MIRRORED_TAGS.includes(entry.tag));
  if (texts.length === 0 || random() < 0.2) {
    // Turn other ASCII entries into mirrored ones, so every sample with Exif takes part.
    const ascii = entries.filter((entry) => entry.type === 2 && !MIRRORED_TAGS.includes(entry.tag));
    const free = MIRRORED_TAGS.filter((tag) => !entries.some((entry) => entry.tag === tag));
    for (const entry of ascii.slice(0, 1 + int(random, 2))) {
      const tag = free.shift();
      if (tag === undefined) break;
      put16(tag, entry.at);
      entry.tag = tag;
      texts.push(entry);
    }
  }
  texts = texts.filter((entry) => entry.type === 2 || entry.type === 7);
  const others = entries.filter((entry) => !MIRRORED_TAGS.includes(entry.tag));
  const outOfLine = others.filter((entry) => entry.size > 4);
  const exifIfd = entries.find((entry) => entry.tag === 0x8769);
  const exifIfdAt = exifIfd ? (tiff.u32(exifIfd.valueAt) ?? 0) : 0;
  for (let round = 1 + int(random, 3); round > 0; round--) {
    const text = texts.length > 0 ? pick(random, texts) : undefined;
    const other = outOfLine.length > 0 ? pick(random, outOfLine) : undefined;
    switch (int(random, 8)) {
      case 0: // a text shares another tag's value
        if (text && other) put32(other.valueAt, text.at + 8);
        break;
      case 1: // another tag's value starts inside a text
        if (text && other && text.size > 4) put32(text.valueAt + int(random, text.size), other.at + 8);
        break;
      case 2: // a text overlaps another value partly
        if (text && other) put32(other.valueAt + int(random, Math.max(1, other.size)) - 2, text.at + 8);
        break;
      case 3: // a text points into the IFD0 table
        if (text) put32(ifd0At + int(random, 2 + entries.length * 12), text.at + 8);
        break;
      case 4: // a text points into the Exif IFD table
        if (text && exifIfdAt) put32(exifIfdAt + int(random, 40), text.at + 8);
        break;
      case 5: // a text's count grows over what follows it
        if (text) put32(text.count + 1 + int(random, 200), text.at + 4);
        break;
      case 6: // a text's count shrinks to an inline value
        if (text) put32(1 + int(random, 4), text.at + 4);
        break;
      default: // another tag points into the IFD0 table, so the table is shared
        if (other) put32(ifd0At + 2 + int(random, entries.length * 12), other.at + 8);
        break;
    }
  }
  return out;
}
