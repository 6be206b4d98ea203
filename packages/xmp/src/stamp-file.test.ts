// stampJpegFile writes the same bytes as stampJpeg, keeps a file without EOI whole, and leaves
// no output behind when it refuses a file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fullTemplate, imagesDir, readSample, sampleImages, stampBuffer } from '../test/support.ts';
import { MetadataError } from './errors.ts';
import { stampJpegFile } from './stamp-file.ts';

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
