import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CollectingWritable,
  chunkedStream,
  fullTemplate,
  headSegments,
  readSample,
  sampleImages,
  sosOffset,
  stampBuffer,
} from '../test/support.ts';
import { catalog, localName } from './catalog.ts';
import { MetadataError } from './errors.ts';
import { EXIF_HEADER, parseExifBasics } from './exif.ts';
import { truncateUtf8 } from './iim.ts';
import { readJpegMetadata } from './read-metadata.ts';
import { stampJpeg } from './stamp.ts';
import { checkTemplate, type Template, templateNode } from './template.ts';
import { getProperty, pruneEmpty } from './xmp-model.ts';

const isExif = (segment: { marker: number; payload: Buffer }): boolean =>
  segment.marker === 0xe1 && segment.payload.subarray(0, 6).equals(EXIF_HEADER);

const isMetadata = (segment: { marker: number; payload: Buffer }): boolean =>
  (segment.marker === 0xe1 && segment.payload.subarray(0, 4).toString() === 'http') ||
  (segment.marker === 0xed && segment.payload.subarray(0, 9).toString() === 'Photoshop');

describe('stampJpeg', () => {
  const template = fullTemplate();
  const { valuesByProperty } = checkTemplate(template);

  it('writes every catalog property into XMP, keeps IIM in sync and leaves everything else alone', async () => {
    for (const name of sampleImages()) {
      const input = readSample(name);
      const { output, warnings, unknownVariables } = await stampBuffer(input, template, { filename: name });
      assert.deepEqual(unknownVariables, []);
      assert.ok(
        warnings.some((warning) => /Headline is \d+ bytes/.test(warning)),
        `${name}: ${warnings.join('; ')}`,
      );
      assert.deepEqual(
        output.subarray(sosOffset(output)),
        input.subarray(sosOffset(input)),
        `${name}: image data`,
      );
      // Every other segment is the same and in the same place; Exif only had its mirrored
      // texts changed (the ExifTool oracle checks those tag by tag).
      const others = (jpeg: Buffer) =>
        headSegments(jpeg)
          .filter((segment) => !isMetadata(segment))
          .map((segment) => (isExif(segment) ? { exif: parseExifBasics(segment.payload) } : segment));
      assert.deepEqual(others(output), others(input), `${name}: other segments`);
      const read = await readJpegMetadata(output);
      assert.ok(read.xmp, name);
      for (const def of catalog) {
        const expected = pruneEmpty(
          templateNode(def, valuesByProperty.get(def.id) ?? []) ?? { kind: 'simple', value: '' },
        );
        assert.deepEqual(
          getProperty(read.xmp, def.namespace, localName(def)),
          expected,
          `${name}: ${def.id}`,
        );
      }
      const iimText = (dataset: number): string[] =>
        read.iim
          .filter((entry) => entry.record === 2 && entry.dataset === dataset)
          .map((entry) => entry.value);
      const headline = template.values.find((value) => value.propertytypeids === 'headline')?.value ?? '';
      assert.deepEqual(iimText(105), [truncateUtf8(headline, 256).toString()]);
      assert.deepEqual(iimText(25), ['keywords 0 Größe «ü» ✓', 'keywords 1 Größe «ü» ✓']);
      assert.deepEqual(iimText(55), ['20240503']);
      assert.deepEqual(iimText(60), ['142200+0200']);
      assert.equal(read.iim.find((entry) => entry.record === 1 && entry.dataset === 90)?.value, '\u001b%G');
    }
  });

  it('gives the same bytes when a stamped file is stamped again with the same template', async () => {
    const first = await stampBuffer(readSample('exiv2-Reagan.jpg'), template);
    const second = await stampBuffer(first.output, template);
    assert.deepEqual(second.output, first.output);
  });

  it('keeps the picture’s metadata when every mode is off', async () => {
    const input = readSample('IPTC-PhotometadataRef-Std2025.1.jpg');
    const before = await readJpegMetadata(input);
    const { output } = await stampBuffer(input, { modes: {}, values: template.values });
    const after = await readJpegMetadata(output);
    assert.deepEqual(after.values, before.values);
    assert.deepEqual(after.exif, before.exif);
    assert.equal(after.xmp?.properties.length, before.xmp?.properties.length);
  });

  it('fills XMP from IIM for a file that only has IIM', async () => {
    const { output } = await stampBuffer(readSample('exiftool-IPTC.jpg'), { modes: {}, values: [] });
    const read = await readJpegMetadata(output);
    const value = (id: string): string[] =>
      read.values.filter((entry) => entry.propertytypeids === id).map((entry) => entry.value);
    assert.deepEqual(value('keywords'), ['ExifTool', 'Test', 'IPTC']);
    assert.ok(read.xmp && read.xmp.properties.length >= 15);
  });

  it('refuses what is not a JPEG and destroys the output', async () => {
    const sink = new CollectingWritable();
    await assert.rejects(
      stampJpeg(chunkedStream(Buffer.from('GIF89a..........')), sink, template),
      (error: unknown) => error instanceof MetadataError && error.code === 'NOT_JPEG',
    );
    assert.equal(sink.destroyed, true);
  });

  it('refuses an invalid template before writing anything', async () => {
    const sink = new CollectingWritable();
    const bad: Template = { modes: { keywords: 'append' }, values: [] };
    await assert.rejects(stampJpeg(chunkedStream(readSample('exiv2-empty.jpg')), sink, bad), /not allowed/);
    assert.equal(sink.bytes().length, 0);
  });

  it('adds no Photoshop segment to a file without one when no IIM value is set', async () => {
    const xmpOnly = await stampBuffer(readSample('exiv2-empty.jpg'), {
      modes: { eventName: 'replace' },
      values: [{ propertytypeids: 'eventName', value: 'Finale' }],
    });
    assert.equal(headSegments(xmpOnly.output).filter((segment) => segment.marker === 0xed).length, 0);
    const withIim = await stampBuffer(readSample('exiv2-empty.jpg'), {
      modes: { headline: 'replace' },
      values: [{ propertytypeids: 'headline', value: 'Finale' }],
    });
    assert.equal(headSegments(withIim.output).filter((segment) => segment.marker === 0xed).length, 1);
  });

  it('reports unknown variables', async () => {
    const { unknownVariables } = await stampBuffer(readSample('exiv2-empty.jpg'), {
      modes: { headline: 'replace' },
      values: [{ propertytypeids: 'headline', value: '{teamname} {city}' }],
    });
    assert.deepEqual(unknownVariables, ['teamname']);
  });
});
