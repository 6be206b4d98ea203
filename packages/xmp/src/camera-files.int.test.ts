// Modern camera and phone files (issue 26), made here from the samples and read by ExifTool
// before and after stamping: MPF images (previews, HDR gain maps) byte-identical behind every
// way of stamping, lenient XMP recovered, IIM the template does not set kept byte for byte, IIM
// under an unusual resource signature, IIM copies in FotoStation trailers.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { headSegments, readSample, sosOffset, stampBuffer, withSegments } from '../test/support.ts';
import { type IimDataset, PHOTOSHOP_HEADER, serializeIim, serializePhotoshopResources } from './iim.ts';
import { encodeSegment, XMP_HEADER } from './jpeg.ts';
import { MPF_HEADER } from './mpf.ts';
import { stampJpegFile } from './stamp-file.ts';
import { stampJpegHead } from './stamp-head.ts';
import type { Template } from './template.ts';

const run = promisify(execFile);
type Tags = Record<string, unknown>;

let workDir = '';
before(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'camera-files-'));
});
after(() => process.env.KEEP || rmSync(workDir, { recursive: true, force: true }));

async function exiftool(file: string, ...args: string[]): Promise<Tags> {
  const { stdout } = await run('exiftool', ['-j', '-G1', '-a', '-charset', 'UTF8', ...args, file], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(stdout) as Tags[])[0] ?? {};
}

/** ExifTool's -validate warnings (one per line as it lists them), the stale IPTC digest left out. */
async function validateWarnings(file: string): Promise<string[]> {
  const { stdout } = await run('exiftool', ['-a', '-s3', '-validate', '-warning', '-error', file]);
  return stdout
    .split('\n')
    .filter((line) => line !== '' && !/IPTCDigest is not current|^\d+ (Warnings?|Errors?)|^OK/.test(line));
}

async function exiftoolBinary(file: string, tag: string): Promise<Buffer> {
  const { stdout } = await run('exiftool', ['-b', `-${tag}`, file], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

const template: Template = {
  modes: { headline: 'replace', creditLine: 'replace', description: 'append' },
  values: [
    { propertytypeids: 'headline', value: 'Neue Schlagzeile' },
    { propertytypeids: 'creditLine', value: 'Agentur Nord' },
    { propertytypeids: 'description', value: '(Foto: Agentur Nord)' },
  ],
};

const MPF_SEGMENT_SIZE = 4 + MPF_HEADER.length + 8 + 2 + 3 * 12 + 4 + 2 * 16;

/**
 * A camera-style MPF file: the primary image (a sample) with an APP2 MPF index inserted before
 * its head segment number `at`, and `second` (another JPEG: a preview, a gain map) after its EOI,
 * as CIPA DC-007 lays them out (little-endian, offsets from the MPF TIFF header).
 */
function withMpfImage(primary: Buffer, second: Buffer, at: number, type: number): Buffer {
  const segments = headSegments(primary).map((s) => encodeSegment(s.marker, s.payload));
  const before = Buffer.concat([primary.subarray(0, 2), ...segments.slice(0, at)]);
  const after = Buffer.concat([...segments.slice(at), primary.subarray(sosOffset(primary))]);
  const primarySize = before.length + MPF_SEGMENT_SIZE + after.length;
  const tiffStart = before.length + 4 + MPF_HEADER.length;
  const tiff = Buffer.alloc(8 + 2 + 3 * 12 + 4 + 2 * 16);
  tiff.write('II*\0', 0, 'latin1');
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(3, 8);
  const entry = (i: number, tag: number, type: number, count: number, value: number | Buffer) => {
    const p = 10 + i * 12;
    tiff.writeUInt16LE(tag, p);
    tiff.writeUInt16LE(type, p + 2);
    tiff.writeUInt32LE(count, p + 4);
    if (typeof value === 'number') tiff.writeUInt32LE(value, p + 8);
    else value.copy(tiff, p + 8);
  };
  const entriesAt = 10 + 3 * 12 + 4;
  entry(0, 0xb000, 7, 4, Buffer.from('0100', 'latin1')); // MPFVersion
  entry(1, 0xb001, 4, 1, 2); // NumberOfImages
  entry(2, 0xb002, 7, 32, entriesAt); // MPEntry
  tiff.writeUInt32LE(0x20030000, entriesAt); // representative, baseline primary image
  tiff.writeUInt32LE(primarySize, entriesAt + 4);
  tiff.writeUInt32LE(0, entriesAt + 8);
  tiff.writeUInt32LE(type, entriesAt + 16);
  tiff.writeUInt32LE(second.length, entriesAt + 20);
  tiff.writeUInt32LE(primarySize - tiffStart, entriesAt + 24);
  const mpf = encodeSegment(0xe2, Buffer.concat([MPF_HEADER, tiff]));
  assert.equal(mpf.length, MPF_SEGMENT_SIZE);
  return Buffer.concat([before, mpf, after, second]);
}

const primary = readSample('IPTC-PhotometadataRef-Std2025.1.jpg');
const preview = readSample('exiv2-FurnaceCreekInn.jpg');

describe('MPF images (camera previews, HDR gain maps) are kept', () => {
  // Before the old XMP and IIM (their replacements change size behind MPF), and after them
  // (new segments used to go in behind MPF).
  // ExifTool calls a large thumbnail PreviewImage, other images (a gain map) MPImage2.
  const placements = [
    ['after Exif, before the old IIM and XMP', 1, 0x00010001, 'PreviewImage'],
    ['after ICC, before APP14', 4, 0, 'MPImage2'],
  ] as const;
  for (const [where, at, type, tag] of placements) {
    it(`MPF ${where}: ${tag} byte-identical after stampJpeg, stampJpegFile (both ways) and stampJpegHead`, async () => {
      const input = withMpfImage(primary, preview, at, type);
      const source = path.join(workDir, `mpf-${at}-in.jpg`);
      writeFileSync(source, input);
      assert.deepEqual(await exiftoolBinary(source, tag), preview, 'the fixture reads as MPF');

      const outputs: Array<[string, Buffer]> = [];
      outputs.push(['stampJpeg', (await stampBuffer(input, template, {}, 4096)).output]);
      for (const [name, options] of [
        ['stampJpegFile', {}],
        ['stampJpegFile on a stamp thread', { timeLimitMs: 10_000 }],
      ] as const) {
        const target = path.join(workDir, `mpf-${at}-file.jpg`);
        await stampJpegFile(source, target, template, options);
        outputs.push([name, readFileSync(target)]);
      }
      for (const options of [{}, { timeLimitMs: 10_000 }]) {
        const { head, dataOffset } = await stampJpegHead(source, template, options);
        outputs.push(['stampJpegHead', Buffer.concat([head, input.subarray(dataOffset)])]);
      }
      const warningsBefore = await validateWarnings(source);
      const before = await exiftool(source);
      const [first] = outputs;
      for (const [name, output] of outputs) {
        assert.deepEqual(output, first?.[1], `${name}: the same bytes every way`);
        const target = path.join(workDir, `mpf-${at}-out.jpg`);
        writeFileSync(target, output);
        assert.deepEqual(await exiftoolBinary(target, tag), preview, `${name}: ${tag}`);
        const tags = await exiftool(target);
        for (const key of Object.keys(before))
          if (
            !untouched.test(key) &&
            !/^MPImage\d:MPImage(Start|Length)$/.test(key) &&
            !setByTemplate.has(key.replace(/^[^:]*:/, ''))
          )
            assert.deepEqual(tags[key], before[key], `${name}: ${key}`);
        // ExifTool gives file offsets: the preview starts where the primary image now ends.
        assert.equal(tags['MPImage1:MPImageLength'], output.length - preview.length, `${name}: primary size`);
        assert.equal(tags['MPImage2:MPImageStart'], output.length - preview.length, `${name}: preview start`);
        assert.equal(tags['XMP-photoshop:Headline'], 'Neue Schlagzeile', name);
        assert.equal(tags['IPTC:Headline'], 'Neue Schlagzeile', name);
        assert.deepEqual(await validateWarnings(target), warningsBefore, `${name}: no new -validate warning`);
        assert.deepEqual(output.subarray(sosOffset(output)), input.subarray(sosOffset(input)), name);
      }
    });
  }
});

const dataset = (record: number, number: number, value: string): IimDataset => ({
  record,
  dataset: number,
  data: Buffer.from(value, 'utf8'),
});
/** An APP13 with the datasets in one IIM resource of the given type. */
const photoshopApp13 = (datasets: IimDataset[], signature = '8BIM'): Buffer =>
  encodeSegment(
    0xed,
    Buffer.concat([
      PHOTOSHOP_HEADER,
      serializePhotoshopResources([
        { signature, id: 0x0404, name: Buffer.alloc(0), data: serializeIim(datasets) },
      ]),
    ]),
  );

/** Stamps `input`, writes both files, returns ExifTool's tags of the stamped one. */
async function stampAndRead(
  name: string,
  input: Buffer,
): Promise<{ tags: Tags; before: Tags; output: Buffer; warnings: string[] }> {
  const { output, warnings } = await stampBuffer(input, template);
  const [source, target] = [path.join(workDir, `${name}-in.jpg`), path.join(workDir, `${name}-out.jpg`)];
  writeFileSync(source, input);
  writeFileSync(target, output);
  const [tags, before] = [await exiftool(target), await exiftool(source)];
  assert.equal(tags['XMP-photoshop:Headline'], 'Neue Schlagzeile', `${name}: XMP headline`);
  assert.equal(tags['IPTC:Headline'], 'Neue Schlagzeile', `${name}: IIM headline`);
  // Every tag the template does not set reads as before (the corpus rule of issue 26); new ones
  // are the same values carried between XMP and IIM.
  for (const key of Object.keys(before))
    if (!untouched.test(key) && !setByTemplate.has(key.replace(/^[^:]*:/, '')))
      assert.deepEqual(tags[key], before[key], `${name}: ${key}`);
  return { tags, before, output, warnings };
}

/** What the template sets (in XMP, IIM and the EXIF mirror), by tag name. */
const setByTemplate = new Set(['Headline', 'Credit', 'Description', 'Caption-Abstract', 'ImageDescription']);
/** Tags of the file itself and the bookkeeping a writer updates (digests, toolkit, encoding). */
const untouched =
  /^(SourceFile|System:|File:|ExifTool:|Composite:|XMP-x:XMPToolkit|Photoshop:IPTCDigest|XMP-photoshop:LegacyIPTCDigest|IPTC:CodedCharacterSet|IPTC:ApplicationRecordVersion|IPTC:EnvelopeRecordVersion)/;

describe('IIM another writer wrote', () => {
  it("keeps datasets the template does not set byte for byte, in their writer's form", async () => {
    const genre = dataset(2, 4, 'A Genre (ref2019.1)');
    const subject = dataset(2, 12, 'Value 1');
    const input = withSegments([
      photoshopApp13([genre, subject, dataset(2, 105, 'Alt'), dataset(2, 90, 'Bonn')]),
    ]);
    const { tags, before, output } = await stampAndRead('iim-forms', input);
    for (const key of ['IPTC:ObjectAttributeReference', 'IPTC:SubjectReference', 'IPTC:City'])
      assert.equal(tags[key], before[key], key);
    assert.equal(tags['IPTC:ObjectAttributeReference'], 'A Genre (ref2019.1)');
    assert.equal(tags['IPTC:SubjectReference'], 'Value 1');
    assert.ok(output.includes(serializeIim([genre, subject])), 'the two datasets as they were');
  });

  for (const signature of ['MeSa', 'PHUT']) {
    it(`writes IIM ExifTool reads when the old IIM resource is of type ${signature}`, async () => {
      const input = withSegments([
        photoshopApp13([dataset(2, 105, 'Alt'), dataset(2, 90, 'Bonn')], signature),
      ]);
      const { tags } = await stampAndRead(`iim-${signature}`, input);
      assert.equal(tags['IPTC:City'], 'Bonn', 'the old IIM value kept, where ExifTool reads it');
      assert.equal(tags['IPTC:Credit'], 'Agentur Nord');
    });
  }
});

const xmpApp1 = (namespaces: string, inner: string, trailer = '<?xpacket end="w"?>'): Buffer =>
  encodeSegment(
    0xe1,
    Buffer.concat([
      XMP_HEADER,
      Buffer.from(
        `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" ${namespaces}>${inner}</rdf:Description></rdf:RDF></x:xmpmeta>\n${trailer}`,
      ),
    ]),
  );

describe('XMP packets that are not well-formed are read as ExifTool reads them', () => {
  it('a packet whose trailer lacks ?> keeps every property', async () => {
    const input = withSegments([
      xmpApp1(
        'xmlns:trap="http://ns.example.org/cameratrap/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
        '<trap:Species>Vulpes vulpes</trap:Species><trap:Station>Station 12</trap:Station><xmp:CreateDate>2024-05-03T04:12:00</xmp:CreateDate><photoshop:City>Eberswalde</photoshop:City>',
        '<?xpacket end="w"',
      ),
    ]);
    const { tags, before, warnings } = await stampAndRead('xmp-trailer', input);
    assert.equal(before['XMP-trap:Species'], 'Vulpes vulpes', 'ExifTool reads the original');
    for (const key of ['XMP-trap:Species', 'XMP-trap:Station', 'XMP-xmp:CreateDate', 'XMP-photoshop:City'])
      assert.equal(tags[key], before[key], key);
    assert.ok(
      warnings.some((w) => /not well-formed XML/.test(w)),
      warnings.join(),
    );
  });

  it("an element name with a '/' costs that element's name only, not the other properties", async () => {
    const input = withSegments([
      xmpApp1(
        'xmlns:exif="http://ns.adobe.com/exif/1.0/"',
        '<exif:FNumber>28/10</exif:FNumber><exif:Lens/Info>Nikkor</exif:Lens/Info><exif:ISOSpeed>200</exif:ISOSpeed><photoshop:City>Nantes</photoshop:City>',
      ),
    ]);
    const { tags, before } = await stampAndRead('xmp-slash', input);
    assert.equal(before['XMP-exif:FNumber'], 2.8, 'ExifTool reads the original');
    for (const key of ['XMP-exif:FNumber', 'XMP-exif:Lens', 'XMP-exif:ISOSpeed', 'XMP-photoshop:City'])
      assert.equal(tags[key], before[key], key);
  });
});

/** Old IIM in a trailer: caption, credit, keywords. */
const trailerIim = serializeIim([
  dataset(2, 120, 'Alte Bildunterschrift'),
  dataset(2, 110, 'Alte Agentur'),
  dataset(2, 25, 'alt'),
]);

/** A FotoStation trailer: the IIM record and a second one, each with its footer. */
function fotoStationTrailer(): Buffer {
  const record = (tag: number, data: Buffer) => {
    const footer = Buffer.alloc(10);
    footer.writeUInt16BE(tag, 0);
    footer.writeUInt32BE(data.length + 10, 2);
    footer.writeUInt32BE(0xa1b2c3d4, 6);
    return Buffer.concat([data, footer]);
  };
  const softEdit = Buffer.alloc(40);
  softEdit.writeInt32BE(640, 0);
  softEdit.writeInt32BE(480, 4);
  return Buffer.concat([record(1, trailerIim), record(2, softEdit)]);
}

/** An AFCP trailer (big-endian) at file offset `at` with the IIM as its one entry. */
function afcpTrailer(at: number): Buffer {
  const header = Buffer.alloc(24);
  header.write('AXS!', 0, 'latin1');
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(1, 6);
  header.write('IPTC', 12, 'latin1');
  header.writeUInt32BE(trailerIim.length, 16);
  header.writeUInt32BE(at + 24, 20);
  const end = Buffer.alloc(12);
  end.write('AXS!', 0, 'latin1');
  end.writeUInt32BE(at, 4);
  return Buffer.concat([header, trailerIim, end]);
}

/** Every value ExifTool reads for a tag, from every place it finds it (`-a`). */
async function allValues(file: string, tag: string): Promise<string[]> {
  const { stdout } = await run('exiftool', ['-a', '-s3', '-charset', 'UTF8', `-${tag}`, file]);
  return stdout.split('\n').filter((line) => line !== '');
}

describe('IIM copies in trailers follow the new IIM', () => {
  const image = readSample('exiftool-IPTC.jpg');
  const trailers = [
    ['FotoStation', fotoStationTrailer()],
    ['AFCP', afcpTrailer(image.length)],
  ] as const;
  for (const [kind, trailer] of trailers) {
    it(`${kind}: the trailer's caption, credit and keywords are the new ones after stampJpegFile and stampJpegHead`, async () => {
      const input = Buffer.concat([image, trailer]);
      const source = path.join(workDir, `trailer-${kind}-in.jpg`);
      writeFileSync(source, input);
      assert.ok(
        (await allValues(source, 'IPTC:Credit')).includes('Alte Agentur'),
        'ExifTool reads the trailer of the fixture',
      );
      const target = path.join(workDir, `trailer-${kind}-file.jpg`);
      await stampJpegFile(source, target, template, { timeLimitMs: 10_000 });
      const credits = await allValues(target, 'IPTC:Credit');
      assert.ok(credits.length >= 2, `the APP13 and the trailer: ${credits.join()}`);
      assert.deepEqual([...new Set(credits)], ['Agentur Nord']);
      for (const caption of await allValues(target, 'IPTC:Caption-Abstract'))
        assert.match(caption, /\(Foto: Agentur Nord\)$/);
      const warnings = await allValues(target, 'Warning');
      assert.ok(!warnings.some((w) => /AFCP/.test(w)), warnings.join());
      const head = await stampJpegHead(source, template);
      assert.ok(head.tail, 'the head stamp returns the rewritten trailer');
      const spliced = Buffer.concat([head.head, input.subarray(head.dataOffset, head.dataEnd), head.tail]);
      assert.equal(spliced.length, head.size);
      assert.deepEqual(readFileSync(target), spliced, 'the same bytes both ways');
      assert.deepEqual(
        spliced.subarray(sosOffset(spliced), sosOffset(spliced) + image.length - sosOffset(image)),
        image.subarray(sosOffset(image)),
        'image data',
      );
    });
  }
});

describe('files ExifTool writes are not refused', () => {
  it('FF 00 between segments is kept as bytes, not read as a segment with a length', async () => {
    const sample = readSample('exiftool-XMP.jpg');
    const afterApp0 = 2 + 2 + sample.readUInt16BE(4);
    const input = Buffer.concat([
      sample.subarray(0, afterApp0),
      Buffer.from([0xff, 0x00]),
      sample.subarray(afterApp0),
    ]);
    const { tags, before, output } = await stampAndRead('ff00', input);
    for (const key of ['IFD0:Artist', 'XMP-dc:Title', 'XMP-dc:Creator'])
      assert.deepEqual(tags[key], before[key], key);
    assert.ok(output.includes(Buffer.from([0xff, 0x00, 0xff, 0xe1])), 'the two bytes kept where they were');
  });
});
