// ExifTool as the oracle: for every sample image, every catalog property is written (all types,
// several languages, every structure field, long and non-ASCII text); ExifTool must read back
// exactly those values in XMP and IPTC-IIM, the EXIF texts that mirror XMP (ImageDescription,
// Artist, Copyright) must follow it, every other tag it reports must be unchanged, and
// the image data from SOS on must be the same bytes. One ExifTool process for the whole file.
import assert from 'node:assert/strict';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ExifTool, type WriteTags } from 'exiftool-vendored';
import { fullTemplate, imagesDir, sampleImages, sharedData, sosOffset } from '../test/support.ts';
import { type CatalogProperty, catalog, localName } from './catalog.ts';
import type { FieldDef } from './catalog-types.ts';
import { truncateUtf8 } from './iim.ts';
import { templateToXmpSidecar, xmpSidecarToTemplate } from './sidecar.ts';
import { stampJpeg } from './stamp.ts';
import { checkTemplate, type Template, templateNode } from './template.ts';
import { xmpSegments } from './xmp-jpeg.ts';
import { altDefault, arrayTexts, emptyPacket, pruneEmpty, type XmpNode } from './xmp-model.ts';

type Tags = Record<string, unknown>;

const exiftool = new ExifTool({ maxProcs: 1 });
let workDir = '';
before(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'xmp-oracle-'));
});
after(async () => {
  await exiftool.end();
  rmSync(workDir, { recursive: true, force: true });
});

// exiftool-vendored (batch-cluster) decodes each stdout chunk on its own, so a multi-byte
// character split between two chunks arrives as U+FFFD. ExifTool's -E keeps the output ASCII
// (HTML entities); they are decoded here with ExifTool's own entity table.
const entityTable = new Map(
  [
    ...readFileSync(
      path.join(
        path.dirname(createRequire(import.meta.url).resolve('exiftool-vendored.pl/package.json')),
        'bin/lib/Image/ExifTool/HTML.pm',
      ),
      'latin1',
    ).matchAll(/'(\w+)'\s*=>\s*(\d+)/g),
  ].map((match) => [match[1] ?? '', Number(match[2])]),
);

function unescapeHtml(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
      const code =
        name.startsWith('#x') || name.startsWith('#X')
          ? Number.parseInt(name.slice(2), 16)
          : name.startsWith('#')
            ? Number(name.slice(1))
            : entityTable.get(name);
      return code === undefined ? whole : String.fromCodePoint(code);
    });
  }
  if (Array.isArray(value)) return value.map(unescapeHtml);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, unescapeHtml(entry)]));
  }
  return value;
}

async function readTags(file: string): Promise<Tags> {
  const tags = (await exiftool.readRaw(file, {
    readArgs: ['-G1', '-a', '-struct', '-n', '-E'],
    useMWG: false,
  })) as Tags;
  delete tags.SourceFile;
  return unescapeHtml(tags) as Tags;
}

/** ExifTool's IIM tag names per catalog id, from the TechReference (etIIM). */
const reference = JSON.parse(
  readFileSync(path.join(sharedData, 'iptc/iptc-pmd-techreference_2025.1.json'), 'utf8'),
) as {
  ipmd_top: Record<string, { etIIM?: string }>;
};

function gpsDecimal(value: string): number {
  const m = /^(\d+),(\d+(?:\.\d+)?)([NSEW])$/.exec(value);
  if (!m) return Number.NaN;
  const degrees = Number(m[1]) + Number(m[2]) / 60;
  return m[3] === 'S' || m[3] === 'W' ? -degrees : degrees;
}

/** The value ExifTool reports (-n) for a value we wrote. */
function expectedScalar(field: FieldDef, value: string): string | number {
  if (field.xmpName === 'exif:GPSLatitude' || field.xmpName === 'exif:GPSLongitude') return gpsDecimal(value);
  if (field.valueFormat === 'date-time') return value.replace(/^(\d{4})-(\d{2})-(\d{2})T/, '$1:$2:$3 ');
  return value;
}

/** Our node in the shape of ExifTool's -struct JSON: alt languages as Tag-lang keys. */
function expectedTags(field: FieldDef, node: XmpNode, key: string, out: Tags): void {
  if (field.type === 'alt' && node.kind === 'array') {
    for (const item of node.items) {
      if (item.kind !== 'simple') continue;
      out[item.lang === 'x-default' ? key : `${key}-${item.lang}`] = expectedScalar(field, item.value);
    }
  } else if ((field.type === 'bag' || field.type === 'seq') && node.kind === 'array') {
    out[key] = node.items.map((item) =>
      field.arrayOfStructures
        ? expectedStruct(field, item)
        : expectedScalar(field, item.kind === 'simple' ? item.value : ''),
    );
  } else if (field.type === 'structure') {
    out[key] = expectedStruct(field, node);
  } else if (node.kind === 'simple') {
    out[key] = expectedScalar(field, node.value);
  }
}

function expectedStruct(field: FieldDef, node: XmpNode): Tags {
  const out: Tags = {};
  if (node.kind !== 'struct') return out;
  for (const entry of node.fields) {
    const def = field.fields?.find(
      (candidate) => candidate.namespace === entry.ns && localName(candidate) === entry.name,
    );
    if (def) expectedTags(def, entry.node, def.exiftoolTag, out);
  }
  return out;
}

/** Compares ExifTool's reading with ours: numbers by value, one-item lists as ExifTool prints them. */
function same(actual: unknown, expected: unknown, where: string): void {
  if (Array.isArray(expected)) {
    const list = Array.isArray(actual) ? actual : [actual];
    assert.equal(list.length, expected.length, `${where}: ${JSON.stringify(actual)}`);
    for (const [index, item] of expected.entries()) same(list[index], item, `${where}[${index}]`);
  } else if (expected !== null && typeof expected === 'object') {
    assert.ok(actual !== null && typeof actual === 'object', `${where}: ${JSON.stringify(actual)}`);
    const object = actual as Tags;
    assert.deepEqual(Object.keys(object).sort(), Object.keys(expected).sort(), where);
    for (const [key, value] of Object.entries(expected)) same(object[key], value, `${where}.${key}`);
  } else if (typeof expected === 'number') {
    assert.ok(Math.abs(Number(actual) - expected) < 1e-6, `${where}: ${String(actual)} != ${expected}`);
  } else {
    assert.equal(String(actual), expected, where);
  }
}

/** Expected IIM values for a property (ExifTool tag -> value), after byte limits. */
function expectedIim(def: CatalogProperty, node: XmpNode): Tags {
  const names = reference.ipmd_top[def.id]?.etIIM?.split('+') ?? [];
  const iim = def.iim;
  const [first, second] = names;
  if (!iim || !first) return {};
  if (iim.format === 'date') {
    const value = node.kind === 'simple' ? node.value : '';
    const [date, time] = value.split('T');
    return { [first]: (date ?? '').replaceAll('-', ':'), ...(second && time ? { [second]: time } : {}) };
  }
  const cut = (text: string): string => (iim.maxBytes ? truncateUtf8(text, iim.maxBytes).toString() : text);
  const format = (text: string): string =>
    iim.format === 'genre' ? `000:${text}` : iim.format === 'subject' ? `IPTC:${text}` : text;
  const texts = def.type === 'bag' || def.type === 'seq' ? arrayTexts(node) : [altDefault(node) ?? ''];
  return { [first]: iim.repeatable ? texts.map((text) => cut(format(text))) : cut(format(texts[0] ?? '')) };
}

/** EXIF texts that mirror an XMP property (MWG): they must read the same after stamping. */
const exifMirrors: Array<[exif: string, xmp: string]> = [
  ['IFD0:ImageDescription', 'XMP-dc:Description'],
  ['IFD0:Artist', 'XMP-dc:Creator'],
  ['IFD0:Copyright', 'XMP-dc:Rights'],
];

/** Tags the stamp is allowed to change besides the catalog properties it wrote. */
function isExpectedChange(key: string, before: Tags): boolean {
  return (
    key.startsWith('System:') ||
    key === 'File:CurrentIPTCDigest' ||
    key === 'Photoshop:IPTCDigest' ||
    key === 'XMP-photoshop:LegacyIPTCDigest' ||
    key === 'ExifTool:Warning' ||
    key === 'IPTC:CodedCharacterSet' ||
    key === 'IPTC:ApplicationRecordVersion' ||
    exifMirrors.some(([exif]) => exif === key) ||
    // Composite tags ExifTool computes from the IPTC date and time we wrote.
    key === 'Composite:DateTimeCreated' ||
    (key === 'Composite:DateTimeOriginal' && !('ExifIFD:DateTimeOriginal' in before)) ||
    (key === 'XMP-x:XMPToolkit' && !(key in before))
  );
}

function catalogExpectations(template: Template): { xmp: Tags; iim: Tags } {
  const { valuesByProperty } = checkTemplate(template);
  const xmp: Tags = {};
  const iim: Tags = {};
  for (const def of catalog) {
    const node = pruneEmpty(
      templateNode(def, valuesByProperty.get(def.id) ?? []) ?? { kind: 'simple', value: '' },
    );
    assert.ok(node, def.id);
    expectedTags(def, node, def.exiftoolTag, xmp);
    Object.assign(iim, expectedIim(def, node));
  }
  return { xmp, iim };
}

describe('ExifTool oracle', () => {
  const template = fullTemplate();
  const expected = catalogExpectations(template);
  const catalogTagNames = new Set(catalog.map((def) => def.exiftoolTag));
  const isCatalogXmpTag = (key: string): boolean =>
    catalogTagNames.has(key.replace(/-[A-Za-z]{2,3}(-[A-Za-z0-9]+)?$/, ''));

  for (const name of sampleImages()) {
    it(`stamps ${name}: ExifTool reads every value back and nothing else changed`, async () => {
      const source = path.join(imagesDir, name);
      const target = path.join(workDir, name);
      await stampJpeg(createReadStream(source), createWriteStream(target), template, { filename: name });
      const [before, stamped] = [await readTags(source), await readTags(target)];

      for (const [key, value] of Object.entries(expected.xmp)) same(stamped[key], value, `${name} ${key}`);
      for (const [key, value] of Object.entries(expected.iim)) same(stamped[key], value, `${name} ${key}`);
      assert.equal(stamped['IPTC:CodedCharacterSet'], '\u001b%G');
      assert.equal(
        stamped['Photoshop:IPTCDigest'],
        stamped['File:CurrentIPTCDigest'],
        `${name}: IPTC digest is current`,
      );
      assert.equal(stamped['ExifTool:Warning'], undefined, `${name}: ${String(stamped['ExifTool:Warning'])}`);
      if ('XMP-photoshop:LegacyIPTCDigest' in before)
        assert.equal(
          stamped['XMP-photoshop:LegacyIPTCDigest'],
          String(stamped['Photoshop:IPTCDigest']).toUpperCase(),
          `${name}: photoshop:LegacyIPTCDigest follows the new IIM`,
        );

      for (const [exifKey, xmpKey] of exifMirrors) {
        if (!(exifKey in before)) {
          assert.equal(stamped[exifKey], undefined, `${name}: ${exifKey} is not added`);
          continue;
        }
        const xmp = stamped[xmpKey];
        const text = Array.isArray(xmp) ? xmp.join('; ') : String(xmp);
        assert.equal(String(stamped[exifKey]), text, `${name}: ${exifKey} follows ${xmpKey}`);
      }

      const keys = new Set([...Object.keys(before), ...Object.keys(stamped)]);
      for (const key of keys) {
        if (isCatalogXmpTag(key) || key in expected.iim || isExpectedChange(key, before)) continue;
        assert.deepEqual(stamped[key], before[key], `${name}: ${key} changed`);
      }
      const [input, output] = [readFileSync(source), readFileSync(target)];
      assert.deepEqual(
        output.subarray(sosOffset(output)),
        input.subarray(sosOffset(input)),
        `${name}: image data`,
      );
    });
  }

  it('writes extended XMP that ExifTool reads whole when the metadata outgrows one segment', async () => {
    const history = `${'Bearbeitet – '.repeat(12_000)}Ende ✓`;
    const packet = emptyPacket();
    packet.properties.push({
      ns: 'http://ns.adobe.com/photoshop/1.0/',
      name: 'History',
      node: { kind: 'simple', value: history },
    });
    const empty = readFileSync(path.join(imagesDir, 'exiv2-empty.jpg'));
    const source = path.join(workDir, 'large-xmp.jpg');
    writeFileSync(source, Buffer.concat([empty.subarray(0, 2), ...xmpSegments(packet), empty.subarray(2)]));
    const target = path.join(workDir, 'large-xmp-stamped.jpg');
    await stampJpeg(createReadStream(source), createWriteStream(target), template);
    const stamped = await readTags(target);
    assert.equal(stamped['ExifTool:Warning'], undefined);
    assert.equal(stamped['XMP-photoshop:History'], history);
    for (const [key, value] of Object.entries(expected.xmp)) same(stamped[key], value, `extended ${key}`);
  });

  it('reads our sidecar, and we read ExifTool’s rewrite of it back into the same template', async () => {
    const sidecar = path.join(workDir, 'template.xmp');
    writeFileSync(sidecar, templateToXmpSidecar(template));
    const tags = await readTags(sidecar);
    for (const [key, value] of Object.entries(expected.xmp)) same(tags[key], value, `sidecar ${key}`);
    assert.equal(tags['ExifTool:Warning'], undefined);

    // ExifTool re-serialises the whole packet when it adds a tag.
    const rewritten = path.join(workDir, 'rewritten.xmp');
    await exiftool.write(sidecar, { 'XMP-dc:Format': 'image/jpeg' } as WriteTags, {
      writeArgs: ['-o', rewritten],
    });
    const back = xmpSidecarToTemplate(readFileSync(rewritten));
    const ours = checkTemplate(template).valuesByProperty;
    const theirs = checkTemplate(back).valuesByProperty;
    for (const def of catalog) {
      assert.deepEqual(
        templateNode(def, theirs.get(def.id) ?? []),
        templateNode(def, ours.get(def.id) ?? []),
        def.id,
      );
      assert.equal(back.modes[def.id], 'replace');
    }
  });
});
