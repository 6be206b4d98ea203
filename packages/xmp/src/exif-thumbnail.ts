// The small JPEG a camera embeds in its EXIF block (IFD1: JPEGInterchangeFormat and its length),
// used as the job log's thumbnail so that most pictures need no decoding at all. Every offset is
// bounds-checked: a damaged block yields no thumbnail, never an exception.
import { EXIF_HEADER, Tiff } from './exif.ts';

const TAG_THUMBNAIL_OFFSET = 0x0201;
const TAG_THUMBNAIL_LENGTH = 0x0202;

/** The embedded thumbnail of an APP1 "Exif" payload (or TIFF block), when it is a whole JPEG. */
export function exifThumbnail(payload: Uint8Array): Buffer | undefined {
  const buf = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  const block = buf.subarray(0, 6).equals(EXIF_HEADER) ? buf.subarray(6) : buf;
  let tiff: Tiff;
  try {
    tiff = new Tiff(block);
  } catch {
    return undefined;
  }
  const ifd0At = tiff.u32(4);
  const count = ifd0At === undefined ? undefined : tiff.u16(ifd0At);
  if (ifd0At === undefined || count === undefined) return undefined;
  const ifd1At = tiff.u32(ifd0At + 2 + count * 12);
  if (!ifd1At || ifd1At === ifd0At) return undefined;
  const ifd1 = tiff.entries(ifd1At);
  const offset = tiff.integer(ifd1.get(TAG_THUMBNAIL_OFFSET));
  const length = tiff.integer(ifd1.get(TAG_THUMBNAIL_LENGTH));
  if (offset === undefined || !length || offset + length > block.length) return undefined;
  const jpeg = block.subarray(offset, offset + length);
  // A whole JPEG: starts with SOI and ends with EOI.
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8 || jpeg[length - 2] !== 0xff || jpeg[length - 1] !== 0xd9)
    return undefined;
  return Buffer.from(jpeg);
}
