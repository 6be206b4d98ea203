import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXIF_HEADER, parseExifBasics, readExifTexts } from './exif.ts';
import { exifTagValues } from './exif-damage.ts';
import { updateExifTexts } from './exif-write.ts';
import { MAX_SEGMENT_PAYLOAD } from './jpeg.ts';
import { headSegments, readSample, sampleImages } from './test-support.ts';

/** The first Exif payload of every sample that has one. */
const samplesWithExif = sampleImages()
  .map((name) => ({
    name,
    exif: headSegments(readSample(name)).find(
      (s) => s.marker === 0xe1 && s.payload.subarray(0, 6).equals(EXIF_HEADER),
    )?.payload,
  }))
  .filter((s): s is { name: string; exif: Buffer } => s.exif !== undefined);

describe('EXIF texts that mirror XMP', () => {
  it('the samples cover both byte orders and all three fields', () => {
    const orders = new Set(samplesWithExif.map((s) => s.exif.toString('latin1', 6, 8)));
    assert.deepEqual([...orders].sort(), ['II', 'MM']);
    const withArtist = samplesWithExif.filter((s) => readExifTexts(s.exif).artist !== undefined);
    assert.ok(withArtist.length >= 3);
  });

  for (const { name, exif } of samplesWithExif) {
    const texts = readExifTexts(exif);
    if (texts.imageDescription === undefined) continue;

    it(`${name}: a shorter text is written in place; nothing else moves`, () => {
      const warnings: string[] = [];
      const out = updateExifTexts(exif, { imageDescription: 'Kurz' }, MAX_SEGMENT_PAYLOAD, warnings);
      assert.ok(out);
      assert.equal(out.length, exif.length, 'same size');
      assert.equal(readExifTexts(out).imageDescription, 'Kurz');
      assert.deepEqual(parseExifBasics(out), parseExifBasics(exif));
      assert.equal(readExifTexts(out).artist, texts.artist, 'other fields untouched');
      assert.deepEqual(warnings, []);
    });

    it(`${name}: a longer UTF-8 text goes to the end of the block and is read back`, () => {
      const long = `Bundesliga: FC Köln – Borussia Dortmund, Zweikampf «${'ü'.repeat(300)}» ✓`;
      const out = updateExifTexts(
        exif,
        { imageDescription: long, copyright: '© Agentur' },
        MAX_SEGMENT_PAYLOAD,
        [],
      );
      assert.ok(out);
      assert.ok(out.length > exif.length);
      assert.equal(readExifTexts(out).imageDescription, long);
      assert.deepEqual(parseExifBasics(out), parseExifBasics(exif), 'camera, dates, serial unchanged');
      assert.equal(readExifTexts(out).copyright, texts.copyright === undefined ? undefined : '© Agentur');
      assert.equal(readExifTexts(out).artist, texts.artist, 'the field not asked for is untouched');
    });
  }

  it('adds nothing the camera did not write, and leaves a text that would not fit', () => {
    const { exif } = samplesWithExif.find((s) => readExifTexts(s.exif).artist === undefined) ?? {};
    if (exif) assert.equal(updateExifTexts(exif, { artist: 'Neu' }, MAX_SEGMENT_PAYLOAD, []), undefined);

    const withDescription = samplesWithExif.find((s) => readExifTexts(s.exif).imageDescription !== undefined);
    assert.ok(withDescription);
    const warnings: string[] = [];
    const tooLong = 'x'.repeat(MAX_SEGMENT_PAYLOAD);
    const out = updateExifTexts(
      withDescription.exif,
      { imageDescription: tooLong },
      MAX_SEGMENT_PAYLOAD,
      warnings,
    );
    assert.equal(out, undefined);
    assert.match(warnings[0] ?? '', /ImageDescription left unchanged/);
  });

  it('the same text again changes nothing; damaged or foreign data is left alone', () => {
    const { exif } = samplesWithExif[0] ?? {};
    assert.ok(exif);
    assert.equal(updateExifTexts(exif, readExifTexts(exif), MAX_SEGMENT_PAYLOAD, []), undefined);
    assert.equal(
      updateExifTexts(Buffer.from('Exif\0\0XX'), { artist: 'a' }, MAX_SEGMENT_PAYLOAD, []),
      undefined,
    );
    assert.equal(updateExifTexts(Buffer.from('nope'), { artist: 'a' }, MAX_SEGMENT_PAYLOAD, []), undefined);
    const cut = exif.subarray(0, 20);
    assert.doesNotThrow(() => updateExifTexts(cut, { artist: 'a' }, MAX_SEGMENT_PAYLOAD, []));
  });

  describe('damaged IFD0: no byte another tag owns is written', () => {
    const sample = samplesWithExif.find((s) => s.name === 'exiftool-XMP.jpg');
    assert.ok(sample);
    // II byte order; IFD0 entries: ImageDescription, Make, Model, ...
    const entryAt = (exif: Buffer, tag: number): number => {
      const ifd0 = 6 + exif.readUInt32LE(10);
      for (let i = 0; i < exif.readUInt16LE(ifd0); i++)
        if (exif.readUInt16LE(ifd0 + 2 + i * 12) === tag) return ifd0 + 2 + i * 12;
      throw new Error(`no tag ${tag}`);
    };

    it('ImageDescription sharing Make’s value: Make keeps its text, the description moves', () => {
      const exif = Buffer.from(sample.exif);
      const make = entryAt(exif, 0x010f);
      exif.writeUInt32LE(exif.readUInt32LE(make + 8), entryAt(exif, 0x010e) + 8);
      exif.writeUInt32LE(exif.readUInt32LE(make + 4), entryAt(exif, 0x010e) + 4);
      const out = updateExifTexts(exif, { imageDescription: 'text' }, MAX_SEGMENT_PAYLOAD, []);
      assert.ok(out);
      assert.equal(readExifTexts(out).imageDescription, 'text');
      assert.equal(parseExifBasics(out).make, 'FUJIFILM');
      assert.deepEqual(exifTagValues(out), exifTagValues(exif));
    });

    it('Make pointing into the IFD0 table: IFD0 is rebuilt after the block, the old table stays', () => {
      const exif = Buffer.from(sample.exif);
      const ifd0 = exif.readUInt32LE(10);
      exif.writeUInt32LE(ifd0 + 2, entryAt(exif, 0x010f) + 8);
      const out = updateExifTexts(exif, { imageDescription: 'Neu', artist: 'Anna' }, MAX_SEGMENT_PAYLOAD, []);
      assert.ok(out);
      assert.notEqual(out.readUInt32LE(10), ifd0, 'IFD0 moved');
      assert.deepEqual(
        out.subarray(14, exif.length),
        exif.subarray(14),
        'no old byte changed but the IFD0 offset',
      );
      assert.deepEqual(readExifTexts(out), {
        imageDescription: 'Neu',
        artist: 'Anna',
        copyright: 'Copyright 2004 Phil Harvey',
      });
      assert.deepEqual(exifTagValues(out), exifTagValues(exif));
    });

    it('a value reaching past the block: nothing is appended, with a warning', () => {
      const exif = Buffer.from(sample.exif);
      exif.writeUInt32LE(exif.length, entryAt(exif, 0x0110) + 8);
      const warnings: string[] = [];
      const out = updateExifTexts(exif, { imageDescription: 'x'.repeat(200) }, MAX_SEGMENT_PAYLOAD, warnings);
      assert.equal(out, undefined);
      assert.match(warnings[0] ?? '', /points past the end/);
    });
  });
});

describe('EXIF GPS', () => {
  const gpsOf = (name: string) => {
    const exif = samplesWithExif.find((s) => s.name === name)?.exif;
    assert.ok(exif, `${name} has EXIF`);
    const { gpsLatitude, gpsLongitude, gpsAltitude, gpsTimeStamp, gpsDateStamp } = parseExifBasics(exif);
    return { gpsLatitude, gpsLongitude, gpsAltitude, gpsTimeStamp, gpsDateStamp };
  };

  it('decimal degrees signed by their refs, as exiftool -n reads them', () => {
    // exiftool -n: 54.9896666666667 -1.91416666666667 14:58:24 (no altitude, no date)
    assert.deepEqual(gpsOf('exiftool-GPS.jpg'), {
      gpsLatitude: 54.9896667,
      gpsLongitude: -1.9141667,
      gpsAltitude: undefined,
      gpsTimeStamp: '14:58:24',
      gpsDateStamp: undefined,
    });
  });

  it('altitude below sea level is negative; a date stamp with a time appended gives the date', () => {
    // exiftool -n: 36.4483333333333 -116.855 -14.28 09:54:28, GPSDateStamp '2008:05:08 09:54:28'
    // (GPS pointer written as SLONG)
    assert.deepEqual(gpsOf('exiv2-FurnaceCreekInn.jpg'), {
      gpsLatitude: 36.4483333,
      gpsLongitude: -116.855,
      gpsAltitude: -14.28,
      gpsTimeStamp: '09:54:28',
      gpsDateStamp: '2008:05:08',
    });
  });

  it('a GPS block without a position (only its version) gives none', () => {
    assert.deepEqual(gpsOf('exiv2-Reagan.jpg'), {
      gpsLatitude: undefined,
      gpsLongitude: undefined,
      gpsAltitude: undefined,
      gpsTimeStamp: undefined,
      gpsDateStamp: undefined,
    });
  });
});
