// Property-based fuzzing with a seeded PRNG (replay a failure with FUZZ_SEED=<seed>): damaged
// JPEGs and XMP packets must give a result or a MetadataError, quickly, with bounded memory;
// never another exception, a hang or a crash.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  CollectingWritable,
  chunkedStream,
  fullTemplate,
  prng,
  readSample,
  sampleImages,
  sharedData,
} from '../test/support.ts';
import { MetadataError } from './errors.ts';
import { readExifTexts } from './exif.ts';
import { damageExif, exifBlock, exifTagValues } from './exif-damage.ts';
import { readJpegHead } from './jpeg.ts';
import { readJpegMetadata } from './read-metadata.ts';
import { stampJpeg } from './stamp.ts';
import { parseXmpPacket } from './xmp-packet.ts';
import { serializeXmpPacket } from './xmp-serialize.ts';

const seed = Number(process.env.FUZZ_SEED ?? 20251103);
const JPEG_CASES = 1200;
const XMP_CASES = 4000;
const EXIF_CASES = 600;
const CASE_BUDGET_MS = 2000;

type Random = () => number;
const int = (random: Random, max: number): number => Math.floor(random() * max);
const pick = <T>(random: Random, items: readonly T[]): T => items[int(random, items.length)] as T;

/** Offsets of the length fields of the segments before SOS. */
function lengthFields(jpeg: Buffer): number[] {
  const out: number[] = [];
  let pos = 2;
  while (pos + 4 <= jpeg.length && jpeg[pos] === 0xff && jpeg[pos + 1] !== 0xda) {
    out.push(pos + 2);
    pos += 2 + jpeg.readUInt16BE(pos + 2);
  }
  return out;
}

function findAll(haystack: Buffer, needle: string): number[] {
  const out: number[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) out.push(at);
  return out;
}

const jpegMutations: Array<(random: Random, input: Buffer) => Buffer> = [
  function truncate(random, input) {
    return input.subarray(0, int(random, input.length));
  },
  function flipBytes(random, input) {
    const out = Buffer.from(input);
    const head = Math.min(out.length, 40_000);
    for (let i = 1 + int(random, 20); i > 0; i--)
      out[int(random, random() < 0.8 ? head : out.length)] = int(random, 256);
    return out;
  },
  function bogusLength(random, input) {
    const out = Buffer.from(input);
    const fields = lengthFields(out);
    if (fields.length > 0)
      out.writeUInt16BE(pick(random, [0, 1, 2, 3, 0xffff, int(random, 0x10000)]), pick(random, fields));
    return out;
  },
  function hugeInnerLengths(random, input) {
    // Lengths inside metadata: extended XMP totals, IIM extended lengths, 8BIM sizes, TIFF offsets.
    const out = Buffer.from(input);
    const targets = [
      ...findAll(out, '8BIM').map((at) => at + 8),
      ...findAll(out, 'MM\0*').map((at) => at + 4),
      ...findAll(out, 'II*\0').map((at) => at + 4),
    ];
    for (const at of findAll(out, '\x1c\x02')) targets.push(at + 3);
    if (targets.length > 0) {
      const at = pick(random, targets);
      if (at + 4 <= out.length)
        out.writeUInt32BE(pick(random, [0xffffffff, 0x7fffffff, 0x80000000, int(random, 2 ** 32)]), at);
    }
    return out;
  },
  function insertGarbage(random, input) {
    const at = int(random, Math.min(input.length, 40_000));
    const junk = Buffer.from(
      Array.from({ length: 1 + int(random, 64) }, () =>
        pick(random, [0xff, 0x00, 0xd8, 0xd9, 0xda, 0xe1, int(random, 256)]),
      ),
    );
    return Buffer.concat([input.subarray(0, at), junk, input.subarray(at)]);
  },
  function exifDamage(random, input) {
    return damageExif(random, input) ?? input;
  },
  function extendedXmpClaims(random, input) {
    // A fake extended-XMP segment claiming 4 GB, at a random offset, right after SOI.
    const header = Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1');
    const meta = Buffer.alloc(40, 0x41);
    meta.writeUInt32BE(pick(random, [0xffffffff, 100, 0]), 32);
    meta.writeUInt32BE(int(random, 2 ** 32), 36);
    const payload = Buffer.concat([header, meta, Buffer.alloc(int(random, 200), 0x20)]);
    const segment = Buffer.alloc(4);
    segment.writeUInt16BE(0xffe1, 0);
    segment.writeUInt16BE(payload.length + 2, 2);
    return Buffer.concat([input.subarray(0, 2), segment, payload, input.subarray(2)]);
  },
];

const xmlTokens = [
  '<',
  '>',
  '&',
  '"',
  "'",
  '</',
  '/>',
  '<rdf:li>',
  '</rdf:li>',
  '<rdf:Bag>',
  '<!DOCTYPE x>',
  '<!ENTITY a "b">',
  '&#x0;',
  '&#xD800;',
  '&amp',
  ']]>',
  '<![CDATA[',
  '<?',
  '?>',
  'rdf:parseType="Resource"',
  'xml:lang="de"',
  'xmlns:a="urn:a"',
  '<a:b>',
  '\u0000',
  '\uFFFF',
  '😀',
  '\uD800',
  ' rdf:resource="x"',
];

const xmpMutations: Array<(random: Random, text: string) => string> = [
  (random, text) => {
    const at = int(random, text.length);
    return text.slice(0, at) + text.slice(at + int(random, 200));
  },
  (random, text) => {
    let out = text;
    for (let i = 1 + int(random, 5); i > 0; i--) {
      const at = int(random, out.length);
      out = out.slice(0, at) + pick(random, xmlTokens) + out.slice(at);
    }
    return out;
  },
  (random, text) => {
    const at = int(random, text.length);
    const length = int(random, 400);
    return text.slice(0, at) + text.slice(at, at + length).repeat(1 + int(random, 4)) + text.slice(at);
  },
  (random, text) => {
    const at = text.indexOf('<rdf:Description');
    const depth = pick(random, [10, 300, 5000]);
    const nested = `<a:x xmlns:a="urn:a">`.repeat(depth) + '</a:x>'.repeat(depth);
    return at < 0 ? nested : text.slice(0, at) + nested + text.slice(at);
  },
  (random, text) => text.slice(0, int(random, text.length)),
];

function expectMetadataError(error: unknown, label: string): void {
  if (error instanceof MetadataError) return;
  throw new Error(
    `${label}: expected a result or a MetadataError, got ${error instanceof Error ? error.stack : String(error)}`,
  );
}

describe(`fuzz (seed ${seed})`, () => {
  const template = fullTemplate();

  it(`stamps ${JPEG_CASES} damaged JPEGs: a result or a MetadataError, fast, bounded memory`, async () => {
    const random = prng(seed);
    const samples = sampleImages().map((name) => ({ name, bytes: readSample(name) }));
    const baseline = process.memoryUsage().rss;
    let peak = 0;
    let failures = 0;
    for (let n = 0; n < JPEG_CASES; n++) {
      const sample = pick(random, samples);
      const mutation = pick(random, jpegMutations);
      const input = mutation(random, sample.bytes);
      const label = `case ${n} (${mutation.name} on ${sample.name}, seed ${seed})`;
      const started = performance.now();
      const sink = new CollectingWritable();
      try {
        await stampJpeg(chunkedStream(input, 1 + int(random, 70_000)), sink, template, {
          filename: sample.name,
        });
        const head = await readJpegHead([sink.bytes()]);
        assert.ok(head.xmp, `${label}: stamped output has XMP`);
      } catch (error) {
        expectMetadataError(error, label);
        failures++;
      }
      try {
        await readJpegMetadata(input);
      } catch (error) {
        expectMetadataError(error, `${label} (read)`);
      }
      assert.ok(
        performance.now() - started < CASE_BUDGET_MS,
        `${label} took ${Math.round(performance.now() - started)} ms`,
      );
      if (n % 50 === 0) peak = Math.max(peak, process.memoryUsage().rss - baseline);
    }
    assert.ok(failures > JPEG_CASES / 10, 'the mutations do produce damaged files');
    assert.ok(failures < JPEG_CASES, 'some damaged files are still stamped');
    assert.ok(peak < 256 * 1024 * 1024, `RSS grew by ${Math.round(peak / 1048576)} MB`);
  });

  it(`mirrors texts into ${EXIF_CASES} damaged EXIF blocks without changing any other tag`, async () => {
    const random = prng(seed + 2);
    const samples = sampleImages()
      .map((name) => ({ name, bytes: readSample(name) }))
      .filter((sample) => exifBlock(sample.bytes));
    let mirrored = 0;
    for (let n = 0; n < EXIF_CASES; n++) {
      const sample = pick(random, samples);
      const input = damageExif(random, sample.bytes) ?? sample.bytes;
      const label = `EXIF case ${n} (${sample.name}, seed ${seed + 2})`;
      const text = (base: string): string => `${base} ${n} ${'ä'.repeat(int(random, 3) === 0 ? 80 : 1)}`;
      const texts = { description: text('Beschreibung'), creator: text('Fotograf'), rights: text('©') };
      const template = {
        modes: { description: 'replace', creatorNames: 'replace', copyrightNotice: 'replace' } as const,
        values: [
          { propertytypeids: 'description', value: texts.description },
          { propertytypeids: 'creatorNames', value: texts.creator },
          { propertytypeids: 'copyrightNotice', value: texts.rights },
        ],
      };
      const sink = new CollectingWritable();
      let warnings: string[];
      try {
        ({ warnings } = await stampJpeg(chunkedStream(input, 1 + int(random, 70_000)), sink, template));
      } catch (error) {
        expectMetadataError(error, label);
        continue;
      }
      const head = await readJpegHead([input]);
      const stamped = await readJpegHead([sink.bytes()]);
      assert.ok(head.exif && stamped.exif, `${label}: Exif kept`);
      assert.deepEqual(
        exifTagValues(stamped.exif),
        exifTagValues(head.exif),
        `${label}: other tags unchanged`,
      );
      const [before, after] = [readExifTexts(head.exif), readExifTexts(stamped.exif)];
      const expected = {
        imageDescription: texts.description,
        artist: texts.creator,
        copyright: texts.rights,
      };
      if (!warnings.some((warning) => warning.startsWith('EXIF'))) {
        for (const key of Object.keys(before) as Array<keyof typeof expected>)
          assert.equal(after[key], expected[key], `${label}: ${key} mirrored`);
        if (Object.keys(before).length > 0) mirrored++;
      }
    }
    assert.ok(mirrored > EXIF_CASES / 2, `${mirrored} of ${EXIF_CASES} damaged blocks took the new texts`);
  });

  it(`parses ${XMP_CASES} damaged XMP packets: a model that round-trips, or a MetadataError`, () => {
    const random = prng(seed + 1);
    const packets = [
      readFileSync(path.join(sharedData, 'xmp/IPTC-PhotometadataRef-Std2025.1.extracted.xmp'), 'utf8'),
      readFileSync(path.join(sharedData, 'xmp/exiv2-StaffPhotographer-Example.xmp'), 'utf8'),
      serializeXmpPacket(
        parseXmpPacket(readFileSync(path.join(sharedData, 'xmp/exiv2-StaffPhotographer-Example.xmp'))),
      ),
    ];
    let parsed = 0;
    for (let n = 0; n < XMP_CASES; n++) {
      const mutation = pick(random, xmpMutations);
      const text = mutation(random, pick(random, packets));
      const label = `XMP case ${n} (seed ${seed + 1})`;
      const started = performance.now();
      const asBytes = random() < 0.3;
      const input = asBytes ? Buffer.from(text, 'utf8') : text;
      if (asBytes && random() < 0.3)
        (input as Buffer)[int(random, (input as Buffer).length)] = 0x80 + int(random, 0x80);
      try {
        const packet = parseXmpPacket(input);
        const again = parseXmpPacket(serializeXmpPacket(packet));
        assert.deepEqual(again.properties, packet.properties, `${label}: round trip`);
        parsed++;
      } catch (error) {
        if (error instanceof assert.AssertionError) throw error;
        expectMetadataError(error, label);
      }
      assert.ok(performance.now() - started < CASE_BUDGET_MS, `${label} took too long`);
    }
    assert.ok(
      parsed > XMP_CASES / 20 && parsed < XMP_CASES,
      `${parsed} of ${XMP_CASES} damaged packets parsed`,
    );
  });
});
