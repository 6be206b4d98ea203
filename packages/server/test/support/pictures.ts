import sharp from 'sharp';

/**
 * Issue 25's decode bomb: a tiny progressive CMYK JPEG (about 700 bytes) whose SOF2 frame header
 * claims `width` × `height`. libjpeg allocates coefficient buffers for the whole claimed image
 * (2 bytes × 4 components per pixel: 1.5 GB at 14000 × 14000) before it reads any scan.
 */
export async function decodeBomb(width = 14_000, height = 14_000): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
    .toColourspace('cmyk')
    .jpeg({ progressive: true, quality: 50 })
    .toBuffer();
  for (let at = 2; at + 9 < jpeg.length; at += 2 + jpeg.readUInt16BE(at + 2)) {
    if (jpeg[at] !== 0xff) break;
    if (jpeg[at + 1] !== 0xc2) continue;
    if (jpeg[at + 9] !== 4) throw new Error('sharp wrote no CMYK frame');
    jpeg.writeUInt16BE(height, at + 5);
    jpeg.writeUInt16BE(width, at + 7);
    return jpeg;
  }
  throw new Error('sharp wrote no progressive frame header');
}
