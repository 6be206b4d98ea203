import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSample, sampleImages } from '../test/support.ts';
import {
  decodeIimText,
  IPTC_DIGEST_ID,
  IPTC_RESOURCE_ID,
  iimDigest,
  parseIim,
  parsePhotoshopResources,
  photoshopSegmentPayloads,
  serializeIim,
  serializePhotoshopResources,
  truncateUtf8,
} from './iim.ts';
import { readJpegHead } from './jpeg.ts';

describe('IPTC-IIM datasets', () => {
  it('round-trips datasets, including repeats and the extended length form', () => {
    const datasets = [
      { record: 1, dataset: 90, data: Buffer.from([0x1b, 0x25, 0x47]) },
      { record: 2, dataset: 0, data: Buffer.from([0, 4]) },
      { record: 2, dataset: 25, data: Buffer.from('one') },
      { record: 2, dataset: 25, data: Buffer.from('two') },
      { record: 2, dataset: 202, data: Buffer.alloc(40_000, 7) },
    ];
    const block = serializeIim(datasets);
    assert.deepEqual(parseIim(block), datasets);
    assert.equal(block.readUInt16BE(block.length - 40_000 - 4 - 2), 0x8004);
  });

  it('stops at damage with a warning instead of failing, and ignores NUL padding', () => {
    const block = serializeIim([{ record: 2, dataset: 5, data: Buffer.from('title') }]);
    const warnings: string[] = [];
    assert.equal(parseIim(Buffer.concat([block, Buffer.alloc(3)]), warnings).length, 1);
    assert.deepEqual(warnings, []);
    assert.equal(
      parseIim(Buffer.concat([block, Buffer.from([0x1c, 2, 5, 0x7f, 0xff, 1])]), warnings).length,
      1,
    );
    assert.match(warnings[0] ?? '', /past the end/);
    assert.equal(parseIim(Buffer.from([0x1c, 2, 5, 0x80, 0x09]), warnings).length, 0);
    assert.equal(parseIim(Buffer.from('garbage'), warnings).length, 0);
  });

  it('decodes UTF-8, and legacy text as Windows-1252 when the block does not say UTF-8', () => {
    assert.equal(decodeIimText(Buffer.from('Größe'), true), 'Größe');
    assert.equal(decodeIimText(Buffer.from('Größe'), false), 'Größe');
    assert.equal(decodeIimText(Buffer.from([0x47, 0x72, 0xf6, 0xdf, 0x65, 0x80]), false), 'Größe€');
  });

  it('cuts UTF-8 at a character boundary', () => {
    assert.equal(truncateUtf8('abc', 5).toString(), 'abc');
    assert.equal(truncateUtf8('ääää', 5).toString(), 'ää');
    assert.equal(truncateUtf8('a😀b', 4).toString(), 'a');
    assert.equal(truncateUtf8('a😀b', 5).toString(), 'a😀');
    assert.equal(truncateUtf8('😀', 0).length, 0);
  });
});

describe('Photoshop image resources', () => {
  it('round-trips resources with names and odd sizes', () => {
    const resources = [
      { signature: '8BIM', id: 0x0404, name: Buffer.alloc(0), data: Buffer.from('odd') },
      { signature: '8BIM', id: 0x040c, name: Buffer.from('thumb'), data: Buffer.alloc(10, 1) },
      { signature: 'PHUT', id: 0x0bb7, name: Buffer.from('x'), data: Buffer.alloc(0) },
    ];
    const block = serializePhotoshopResources(resources);
    assert.equal(block.length % 2, 0);
    assert.deepEqual(parsePhotoshopResources(block), resources);
  });

  it('splits large blocks over several APP13 payloads', () => {
    const block = Buffer.alloc(150_000, 3);
    const payloads = photoshopSegmentPayloads(block, 65533);
    assert.equal(payloads.length, 3);
    assert.ok(
      payloads.every(
        (payload) =>
          payload.length <= 65533 && payload.subarray(0, 14).toString('latin1') === 'Photoshop 3.0\0',
      ),
    );
    assert.deepEqual(Buffer.concat(payloads.map((payload) => payload.subarray(14))), block);
  });

  it('computes the IPTC digest (0x0425) as ExifTool does', async () => {
    const digestOf = async (name: string): Promise<{ ours: string; stored?: string }> => {
      const head = await readJpegHead([readSample(name)]);
      const resources = parsePhotoshopResources(head.photoshop ?? Buffer.alloc(0));
      const iim = resources.find((resource) => resource.id === IPTC_RESOURCE_ID);
      const stored = resources.find((resource) => resource.id === IPTC_DIGEST_ID)?.data.toString('hex');
      return { ours: iimDigest(iim?.data ?? Buffer.alloc(0)).toString('hex'), ...(stored ? { stored } : {}) };
    };
    // Photoshop wrote these two and its digest is current.
    for (const name of ['exiv2-Reagan.jpg', 'exifr-iptc-staff-photographer-example.jpg']) {
      const { ours, stored } = await digestOf(name);
      assert.equal(ours, stored, name);
    }
    // ExifTool's CurrentIPTCDigest of the reference image (images/expected/*.exiftool.json).
    assert.equal(
      (await digestOf('IPTC-PhotometadataRef-Std2025.1.jpg')).ours,
      'c0ff1f4be891be250bb0c11b4f0dc9fb',
    );
    for (const name of sampleImages()) {
      const head = await readJpegHead([readSample(name)]);
      if (!head.photoshop) continue;
      const resources = parsePhotoshopResources(head.photoshop);
      assert.deepEqual(
        serializePhotoshopResources(resources),
        head.photoshop,
        `${name} resources round trip`,
      );
    }
  });
});
