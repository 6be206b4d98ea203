// Multi-Picture Format (CIPA DC-007): an APP2 "MPF\0" segment whose MP Index IFD lists the
// images of the file (camera previews, HDR gain maps, Ultra HDR). Each entry's offset counts from
// the MPF segment's TIFF header to an image after the primary image's EOI; so when the segments
// after the MPF segment change size, every offset but the primary image's (0) moves by as much,
// and the primary image's size (its entry's size) changes with the whole head.
import { Tiff } from './exif.ts';

export const MPF_HEADER = Buffer.from('MPF\0', 'latin1');
const APP2 = 0xe2;
const TAG_MP_ENTRY = 0xb002;
const MP_ENTRY_SIZE = 16;
/** Where the image size and the data offset sit inside a 16-byte MP entry (after the attributes). */
const ENTRY_SIZE_AT = 4;
const ENTRY_OFFSET_AT = 8;

export function isMpfSegment(marker: number, payload: Buffer): boolean {
  return marker === APP2 && payload.length > MPF_HEADER.length && payload.subarray(0, 4).equals(MPF_HEADER);
}

/**
 * The MPF payload with every image offset moved by `delta` bytes and the primary image's size
 * by `growth`, or undefined (with the reason in `warnings`) when the index cannot be read or a
 * value would leave its range.
 */
export function shiftMpfOffsets(
  payload: Buffer,
  delta: number,
  growth: number,
  warnings: string[],
): Buffer | undefined {
  const out = Buffer.from(payload);
  let tiff: Tiff;
  try {
    tiff = new Tiff(out.subarray(MPF_HEADER.length));
  } catch {
    warnings.push('the MPF index is not readable; the offsets of its images were left as they were');
    return undefined;
  }
  const ifdAt = tiff.u32(4);
  const entry = ifdAt === undefined ? undefined : tiff.entries(ifdAt).get(TAG_MP_ENTRY);
  if (entry?.type !== 7 || entry.count % MP_ENTRY_SIZE !== 0) {
    warnings.push(
      'the MPF index has no readable MP entries; the offsets of its images were left as they were',
    );
    return undefined;
  }
  for (let at = entry.valueAt; at < entry.valueAt + entry.count; at += MP_ENTRY_SIZE) {
    const offset = tiff.u32(at + ENTRY_OFFSET_AT);
    const size = tiff.u32(at + ENTRY_SIZE_AT);
    if (offset === undefined || size === undefined) continue;
    // Offset 0 is the primary image (the file itself): it does not move, its size changes.
    const [where, value] =
      offset === 0 ? [at + ENTRY_SIZE_AT, size + growth] : [at + ENTRY_OFFSET_AT, offset + delta];
    if (value <= 0 || value > 0xffffffff) {
      warnings.push('an MPF image offset would leave its range; the offsets were left as they were');
      return undefined;
    }
    if (tiff.little) out.writeUInt32LE(value, MPF_HEADER.length + where);
    else out.writeUInt32BE(value, MPF_HEADER.length + where);
  }
  return out;
}
