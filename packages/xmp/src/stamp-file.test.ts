// stampJpegFile writes the same bytes as stampJpeg, keeps a file without EOI whole, and leaves
// no output behind when it refuses a file.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  fullTemplate,
  imagesDir,
  manyProperties,
  readSample,
  sampleImages,
  stampBuffer,
  withSegments,
} from '../test/support.ts';
import { MetadataError } from './errors.ts';
import { stampJpegFile, stampJpegHead } from './stamp-file.ts';
import { xmpSegments } from './xmp-jpeg.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'stamp-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('stampJpegFile', () => {
  const template = fullTemplate();
  for (const name of sampleImages()) {
    it(`${name}: the same bytes and warnings as stampJpeg`, async () => {
      const out = path.join(dir, name);
      const result = await stampJpegFile(path.join(imagesDir, name), out, template, { filename: name });
      const streamed = await stampBuffer(readSample(name), template, { filename: name });
      assert.deepEqual(readFileSync(out), streamed.output);
      assert.deepEqual(result.warnings, streamed.warnings);
    });
  }

  it('a file of several data blocks with a head beyond the first block: the same bytes as stampJpeg, and their SHA-256', async () => {
    // Eight 60 KB APP2 segments push the head past the first (64 KB) block; 9 MB of scan-like
    // bytes (no FF) before EOI span three data blocks, so both data buffers are reused.
    const sample = readSample('IPTC-PhotometadataRef-Std2025.1.jpg');
    const filler = Buffer.concat(
      Array.from({ length: 8 }, (_, i) => {
        const segment = Buffer.alloc(60_004, 0x20 + i);
        segment.writeUInt16BE(0xffe2, 0);
        segment.writeUInt16BE(60_002, 2);
        return segment;
      }),
    );
    const scan = Buffer.alloc(9 * 1024 * 1024 + 12_345);
    for (let i = 0; i < scan.length; i++)
      scan[i] = (i * 2654435761) >>> 24 === 0xff ? 0x7f : (i * 2654435761) >>> 24;
    const big = Buffer.concat([
      sample.subarray(0, 2),
      filler,
      sample.subarray(2, sample.length - 2),
      scan,
      sample.subarray(sample.length - 2),
    ]);
    const input = path.join(dir, 'big.jpg');
    writeFileSync(input, big);
    const out = path.join(dir, 'big-out.jpg');
    const result = await stampJpegFile(input, out, template, { filename: 'big.jpg', sha256: true });
    // On a stamp thread (synchronous reads and writes there): the same file and digest.
    const threadOut = path.join(dir, 'big-thread-out.jpg');
    const onThread = await stampJpegFile(input, threadOut, template, {
      filename: 'big.jpg',
      sha256: true,
      timeLimitMs: 30_000,
    });
    assert.ok(readFileSync(threadOut).equals(readFileSync(out)), 'the same bytes on a stamp thread');
    assert.deepEqual(onThread, result);
    // Without a digest the image data after the head's last block may be copied by the kernel.
    const kernelOut = path.join(dir, 'big-kernel-out.jpg');
    await stampJpegFile(input, kernelOut, template, { filename: 'big.jpg', timeLimitMs: 30_000 });
    assert.ok(readFileSync(kernelOut).equals(readFileSync(out)), 'the same bytes with the kernel copy');
    const streamed = await stampBuffer(big, template, { filename: 'big.jpg' });
    const written = readFileSync(out);
    // The digest is taken on the way while the block buffers are reused: right only if each block
    // is hashed before its buffer is read into again.
    assert.equal(result.size, written.length);
    assert.equal(result.sha256, createHash('sha256').update(written).digest('hex'));
    assert.equal(written.length, streamed.output.length);
    assert.ok(written.equals(streamed.output), 'byte for byte as stampJpeg');
    assert.ok(
      written.subarray(written.length - scan.length - 2).equals(big.subarray(big.length - scan.length - 2)),
    );
    assert.deepEqual(result.warnings, streamed.warnings);
  });

  for (const name of sampleImages()) {
    it(`${name}: on a stamp thread (timeLimitMs), the same bytes and warnings`, async () => {
      const here = path.join(dir, `here-${name}`);
      const there = path.join(dir, `thread-${name}`);
      const input = path.join(imagesDir, name);
      const expected = await stampJpegFile(input, here, template, { filename: name });
      const result = await stampJpegFile(input, there, template, { filename: name, timeLimitMs: 30_000 });
      assert.ok(readFileSync(there).equals(readFileSync(here)));
      assert.deepEqual(result, expected);
    });
  }

  it('on a stamp thread: a file whose metadata takes longer than the limit fails with TIME_LIMIT and leaves no output', async () => {
    const input = path.join(dir, 'slow.jpg');
    writeFileSync(input, withSegments(xmpSegments(manyProperties(9000))));
    const out = path.join(dir, 'slow-out.jpg');
    await assert.rejects(
      stampJpegFile(input, out, template, { timeLimitMs: 1 }),
      (error: unknown) => error instanceof MetadataError && error.code === 'TIME_LIMIT',
    );
    assert.equal(existsSync(out), false);
    // A refusal by the engine on the thread is passed through, and leaves no output either.
    writeFileSync(input, readSample('exiftool-XMP.jpg').subarray(0, 500));
    await assert.rejects(
      stampJpegFile(input, out, template, { timeLimitMs: 30_000 }),
      (error: unknown) => error instanceof MetadataError && error.code === 'TRUNCATED',
    );
    assert.equal(existsSync(out), false);
  });

  it('files stamped at the same time (block buffers are kept between files) each get their own bytes', async () => {
    const names = sampleImages();
    const runs = names.map(async (name, i) => {
      const out = path.join(dir, `together-${i}.jpg`);
      await stampJpegFile(path.join(imagesDir, name), out, template, { filename: name });
      return { name, out };
    });
    for (const { name, out } of await Promise.all(runs)) {
      const streamed = await stampBuffer(readSample(name), template, { filename: name });
      assert.ok(readFileSync(out).equals(streamed.output), name);
    }
  });

  it('a file without EOI: every byte kept, with a warning (the tail check does not skip the scan)', async () => {
    const sample = readSample('exiv2-FurnaceCreekInn.jpg');
    const input = path.join(dir, 'cut.jpg');
    writeFileSync(input, sample.subarray(0, sample.length - 300));
    const out = path.join(dir, 'cut-out.jpg');
    const result = await stampJpegFile(input, out, template);
    assert.ok(result.warnings.some((w) => /no EOI marker/.test(w)));
    const written = readFileSync(out);
    assert.deepEqual(
      written.subarray(written.length - 2000),
      sample.subarray(sample.length - 2300, sample.length - 300),
    );
  });

  it('refuses a file cut inside its head and removes the output', async () => {
    const input = path.join(dir, 'head.jpg');
    writeFileSync(input, readSample('exiftool-XMP.jpg').subarray(0, 500));
    const out = path.join(dir, 'head-out.jpg');
    await assert.rejects(
      stampJpegFile(input, out, template),
      (error: unknown) => error instanceof MetadataError && error.code === 'TRUNCATED',
    );
    assert.equal(existsSync(out), false);
  });
});

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
