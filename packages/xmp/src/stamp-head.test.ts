// stampJpegHead: its head plus the input from dataOffset are the bytes stampJpegFile writes, on
// the caller's thread and on a stamp thread; cut files and trailers warned alike; headOnly.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  fullTemplate,
  imagesDir,
  manyProperties,
  readSample,
  sampleImages,
  withSegments,
} from '../test/support.ts';
import { MetadataError } from './errors.ts';
import { stampJpegFile } from './stamp-file.ts';
import { stampJpegHead } from './stamp-head.ts';
import { xmpSegments } from './xmp-jpeg.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'stamp-head-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('stampJpegHead', () => {
  const template = fullTemplate();
  /** What stampJpegHead describes, as one file. */
  const spliced = (head: Buffer, input: Buffer, dataOffset: number) =>
    Buffer.concat([head, input.subarray(dataOffset)]);

  for (const name of sampleImages()) {
    it(`${name}: the head plus the image data are the bytes stampJpegFile writes, here and on a stamp thread`, async () => {
      const input = path.join(imagesDir, name);
      const out = path.join(dir, `whole-${name}`);
      const whole = await stampJpegFile(input, out, template, { filename: name });
      const bytes = readFileSync(input);
      for (const timeLimitMs of [undefined, 30_000]) {
        const result = await stampJpegHead(input, template, { filename: name, timeLimitMs });
        assert.ok(spliced(result.head, bytes, result.dataOffset).equals(readFileSync(out)));
        assert.equal(result.size, whole.size);
        assert.deepEqual(result.warnings, whole.warnings);
        // The head ends with the SOS header: what follows is image data, never metadata.
        const sos = result.head.lastIndexOf(Buffer.from([0xff, 0xda]));
        assert.equal(sos + 2 + result.head.readUInt16BE(sos + 2), result.head.length);
      }
    });
  }

  it('a head beyond the first block, and heads made at the same time on two threads, each right', async () => {
    const sample = readSample('IPTC-PhotometadataRef-Std2025.1.jpg');
    const filler = Buffer.alloc(8 * 60_004, 0x41);
    for (let i = 0; i < 8; i++) {
      filler.writeUInt16BE(0xffe2, i * 60_004);
      filler.writeUInt16BE(60_002, i * 60_004 + 2);
    }
    const big = Buffer.concat([sample.subarray(0, 2), filler, sample.subarray(2)]);
    const input = path.join(dir, 'big-head.jpg');
    writeFileSync(input, big);
    const out = path.join(dir, 'big-head-out.jpg');
    await stampJpegFile(input, out, template, { filename: 'big.jpg' });
    const results = await Promise.all(
      [input, input, input, path.join(imagesDir, 'exiftool-XMP.jpg')].map((file) =>
        stampJpegHead(file, template, { filename: 'big.jpg', timeLimitMs: 30_000 }),
      ),
    );
    for (const result of results.slice(0, 3)) {
      assert.ok(result.dataOffset > 8 * 60_004);
      assert.ok(spliced(result.head, big, result.dataOffset).equals(readFileSync(out)));
    }
  });

  it('a file without EOI or with a trailer: warned as stampJpegFile warns; refusals and the time limit as for stampJpegFile', async () => {
    const sample = readSample('exiv2-FurnaceCreekInn.jpg');
    const input = path.join(dir, 'cut-head.jpg');
    const trailer = Buffer.concat([sample, Buffer.from('TRAILER')]);
    for (const [bytes, warned] of [
      [sample.subarray(0, sample.length - 300), true],
      [trailer, false],
    ] as const) {
      writeFileSync(input, bytes);
      const out = path.join(dir, 'cut-head-out.jpg');
      const whole = await stampJpegFile(input, out, template);
      for (const timeLimitMs of [undefined, 30_000]) {
        const result = await stampJpegHead(input, template, { timeLimitMs });
        assert.ok(spliced(result.head, bytes, result.dataOffset).equals(readFileSync(out)));
        assert.deepEqual(result.warnings, whole.warnings);
        assert.equal(
          result.warnings.some((w) => /no EOI marker/.test(w)),
          warned,
        );
      }
    }
    writeFileSync(input, readSample('exiftool-XMP.jpg').subarray(0, 500));
    for (const timeLimitMs of [undefined, 30_000])
      await assert.rejects(
        stampJpegHead(input, template, { timeLimitMs }),
        (error: unknown) => error instanceof MetadataError && error.code === 'TRUNCATED',
      );
    writeFileSync(input, withSegments(xmpSegments(manyProperties(9000))));
    await assert.rejects(
      stampJpegHead(input, template, { timeLimitMs: 1 }),
      (error: unknown) => error instanceof MetadataError && error.code === 'TIME_LIMIT',
    );
  });

  it('headOnly: a stamped head stamped again alone gives the head of the whole file stamped again; a head file holding image data is refused', async () => {
    const name = 'IPTC-PhotometadataRef-Std2025.1.jpg';
    const bytes = readSample(name);
    const first = await stampJpegHead(path.join(imagesDir, name), template, { filename: name });
    const headFile = path.join(dir, 'head-only.head');
    writeFileSync(headFile, first.head);
    const wholeFile = path.join(dir, 'head-only-whole.jpg');
    writeFileSync(wholeFile, spliced(first.head, bytes, first.dataOffset));
    const again = await stampJpegHead(headFile, template, {
      filename: name,
      headOnly: true,
      timeLimitMs: 30_000,
    });
    const reference = await stampJpegHead(wholeFile, template, { filename: name });
    assert.ok(again.head.equals(reference.head));
    assert.equal(again.dataOffset, first.head.length);
    assert.deepEqual(again.warnings, reference.warnings);
    writeFileSync(
      headFile,
      Buffer.concat([first.head, bytes.subarray(first.dataOffset, first.dataOffset + 100)]),
    );
    await assert.rejects(
      stampJpegHead(headFile, template, { headOnly: true }),
      /holds 100 bytes of image data/,
    );
  });
});
