import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { readImage } from '../../../test/support/metadata.ts';
import { decodeBomb } from '../../../test/support/pictures.ts';
import { frameDecodeBytes, type JpegFrame, readJpegFrame } from './frame-header.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frame-header-'));
const write = (name: string, bytes: Buffer) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
};
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

test("the decode bomb's frame: progressive CMYK 14000 × 14000, 1.5 GB of coefficients", async () => {
  const bomb = await decodeBomb();
  assert.ok(bomb.length < 1000, `${bomb.length} bytes`);
  const frame = await readJpegFrame(write('bomb.jpg', bomb));
  assert.ok(frame);
  assert.deepEqual(
    [frame.width, frame.height, frame.components.length, frame.progressive],
    [14000, 14000, 4, true],
  );
  assert.equal(mb(frameDecodeBytes(frame)), 1495);
});

test('sample files: sequential and progressive YCbCr, counted at their own sampling', async () => {
  const sequential = await readJpegFrame(
    write('a.jpg', readImage('exifr-iptc-staff-photographer-example.jpg')),
  );
  assert.ok(sequential);
  assert.deepEqual([sequential.width, sequential.height, sequential.progressive], [516, 350, false]);
  assert.ok(frameDecodeBytes(sequential) <= 3 * 528 * 352);
  const progressive = await readJpegFrame(write('b.jpg', readImage('IPTC-PhotometadataRef-Std2025.1.jpg')));
  assert.ok(progressive);
  assert.deepEqual([progressive.width, progressive.height, progressive.progressive], [2000, 1000, true]);
  assert.ok(frameDecodeBytes(progressive) <= 2 * 3 * 2000 * 1008);
});

test('what cameras make fits the default budget of 512 MB; the bomb does not', () => {
  const ycc420 = [
    { h: 2, v: 2 },
    { h: 1, v: 1 },
    { h: 1, v: 1 },
  ];
  const ycc444 = [
    { h: 1, v: 1 },
    { h: 1, v: 1 },
    { h: 1, v: 1 },
  ];
  const frame = (f: Partial<JpegFrame>): JpegFrame => ({
    width: 12_288,
    height: 8_192,
    precision: 8,
    components: ycc444,
    progressive: false,
    ...f,
  });
  // 100 MP baseline 4:4:4: 300 MB; 4:2:0 half of it; progressive 4:2:0 the same 300 MB.
  assert.equal(mb(frameDecodeBytes(frame({}))), 288);
  assert.equal(mb(frameDecodeBytes(frame({ components: ycc420 }))), 144);
  assert.equal(mb(frameDecodeBytes(frame({ components: ycc420, progressive: true }))), 288);
  const cmyk = [...ycc444, { h: 1, v: 1 }];
  assert.ok(
    frameDecodeBytes(frame({ width: 14_000, height: 14_000, components: cmyk, progressive: true })) >
      512 * 2 ** 20,
  );
});

test('no JPEG: undefined; a JPEG cut before its frame: an error', async () => {
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  assert.equal(await readJpegFrame(write('a.png', png)), undefined);
  const bomb = await decodeBomb();
  await assert.rejects(readJpegFrame(write('cut.jpg', bomb.subarray(0, 30))), /ends before its frame/);
});
