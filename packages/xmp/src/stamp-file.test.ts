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
import { stampJpegFile } from './stamp-file.ts';
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
