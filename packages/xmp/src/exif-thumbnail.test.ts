import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exifThumbnail } from './exif-thumbnail.ts';

/** A little-endian TIFF block: IFD0 with one entry, IFD1 pointing at `thumb`. */
function exifWithThumbnail(thumb: Buffer, lengthDelta = 0) {
  const ifd0 = Buffer.alloc(2 + 12 + 4);
  ifd0.writeUInt16LE(1, 0);
  ifd0.writeUInt16LE(0x0112, 2); // Orientation, SHORT, 1
  ifd0.writeUInt16LE(3, 4);
  ifd0.writeUInt32LE(1, 6);
  ifd0.writeUInt16LE(1, 10);
  const ifd1At = 8 + ifd0.length;
  ifd0.writeUInt32LE(ifd1At, 14);
  const ifd1 = Buffer.alloc(2 + 2 * 12 + 4);
  const thumbAt = ifd1At + ifd1.length;
  ifd1.writeUInt16LE(2, 0);
  ifd1.writeUInt16LE(0x0201, 2);
  ifd1.writeUInt16LE(4, 4);
  ifd1.writeUInt32LE(1, 6);
  ifd1.writeUInt32LE(thumbAt, 10);
  ifd1.writeUInt16LE(0x0202, 14);
  ifd1.writeUInt16LE(4, 16);
  ifd1.writeUInt32LE(1, 18);
  ifd1.writeUInt32LE(thumb.length + lengthDelta, 22);
  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]);
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), header, ifd0, ifd1, thumb]);
}

const thumb = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xdb]),
  Buffer.alloc(40, 7),
  Buffer.from([0xff, 0xd9]),
]);

test('the embedded thumbnail comes out whole', () => {
  assert.deepEqual(exifThumbnail(exifWithThumbnail(thumb)), thumb);
});

test('a damaged block or a length past its end gives no thumbnail, no exception', () => {
  assert.equal(exifThumbnail(exifWithThumbnail(thumb, 10)), undefined);
  assert.equal(exifThumbnail(exifWithThumbnail(thumb, -1)), undefined);
  assert.equal(exifThumbnail(Buffer.from('Exif\0\0XX', 'latin1')), undefined);
  const whole = exifWithThumbnail(thumb);
  for (let cut = 0; cut < whole.length; cut += 7) exifThumbnail(whole.subarray(0, cut));
});
