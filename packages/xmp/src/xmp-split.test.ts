// Large packets: the split into standard and extended XMP is linear, and a packet with more
// properties than any real file is refused with a clear error instead of blocking a worker.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { manyProperties, stampBuffer, withSegments } from '../test/support.ts';
import { MetadataError } from './errors.ts';
import { readJpegHead } from './jpeg.ts';
import { readJpegXmp, xmpSegments } from './xmp-jpeg.ts';
import { emptyPacket, type XmpPacket } from './xmp-model.ts';
import { MAX_XMP_PROPERTIES, MAX_XMP_VALUES } from './xmp-packet.ts';

/** One photoshop:DocumentAncestors Bag of `count` items, as Photoshop lets it run away. */
function ancestors(count: number): XmpPacket {
  const packet = emptyPacket();
  const items = Array.from({ length: count }, (_, i) => ({
    kind: 'simple' as const,
    value: `xmp.did:${i.toString(16).padStart(8, '0')}-7a1c-4e0b-9d55-3f2e8c6b1a90`,
  }));
  packet.properties.push({
    ns: 'http://ns.adobe.com/photoshop/1.0/',
    name: 'DocumentAncestors',
    node: { kind: 'array', form: 'Bag', items },
  });
  return packet;
}

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

  it('stamps 12,000 DocumentAncestors items and keeps them all', async () => {
    const input = withSegments(xmpSegments(ancestors(12_000)));
    const { output } = await stampBuffer(input, { modes: {}, values: [] });
    const node = readJpegXmp(await readJpegHead([output]), [])?.properties[0]?.node;
    assert.equal(node?.kind === 'array' ? node.items.length : 0, 12_000);
  });

  it(`refuses more than ${MAX_XMP_VALUES} values counting list items (issue 26: the cap counted top-level properties only)`, async () => {
    const input = withSegments(xmpSegments(ancestors(MAX_XMP_VALUES + 1)));
    await assert.rejects(
      stampBuffer(input, { modes: {}, values: [] }),
      (error: unknown) =>
        error instanceof MetadataError &&
        error.code === 'METADATA_TOO_LARGE' &&
        /more than 100000 values/.test(error.message),
    );
  });
});
