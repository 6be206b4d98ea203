// Large packets: the split into standard and extended XMP is linear, and a packet with more
// properties than any real file is refused with a clear error instead of blocking a worker.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MetadataError } from './errors.ts';
import { readJpegHead } from './jpeg.ts';
import { manyProperties, stampBuffer, withSegments } from './test-support.ts';
import { readJpegXmp, xmpSegments } from './xmp-jpeg.ts';
import { MAX_XMP_PROPERTIES } from './xmp-packet.ts';

describe('large XMP', () => {
  for (const count of [3000, 8000]) {
    it(`splits ${count} properties into standard and extended XMP in linear time, and reads them back`, async () => {
      const started = performance.now();
      const segments = xmpSegments(manyProperties(count));
      const elapsed = performance.now() - started;
      assert.ok(segments.length > 2, 'extended XMP written');
      assert.ok(elapsed < 4000, `split took ${Math.round(elapsed)} ms`);
      const head = await readJpegHead([withSegments(segments)]);
      const packet = readJpegXmp(head, []);
      assert.equal(packet?.properties.length, count);
    });
  }

  it('stamps a file with 8,000 properties in well under the time a worker may spend', async () => {
    const input = withSegments(xmpSegments(manyProperties(8000)));
    const started = performance.now();
    const { output } = await stampBuffer(input, {
      modes: { headline: 'replace' },
      values: [{ propertytypeids: 'headline', value: 'H' }],
    });
    assert.ok(performance.now() - started < 5000, `${Math.round(performance.now() - started)} ms`);
    const packet = readJpegXmp(await readJpegHead([output]), []);
    assert.equal(packet?.properties.length, 8001);
  });

  it(`refuses more than ${MAX_XMP_PROPERTIES} properties with a clear error`, async () => {
    const input = withSegments(xmpSegments(manyProperties(MAX_XMP_PROPERTIES + 6000)));
    await assert.rejects(
      stampBuffer(input, { modes: {}, values: [] }),
      (error: unknown) =>
        error instanceof MetadataError &&
        error.code === 'METADATA_TOO_LARGE' &&
        /more than 10000 properties/.test(error.message),
    );
  });
});
