// Files that are not well formed but that ExifTool stamps: the engine stamps them too, with a
// warning, and loses nothing it did not set. Each fixture is made here from a sample; ExifTool
// reads the result (the template's values in XMP and IIM, old values merged, no stale legacy
// values, every EXIF tag unchanged, the image data byte-identical).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { headSegments, readSample, sosOffset, stampBuffer } from '../test/support.ts';
import { type IimDataset, PHOTOSHOP_HEADER, serializeIim, serializePhotoshopResources } from './iim.ts';
import { encodeSegment, XMP_HEADER } from './jpeg.ts';
import type { Template } from './template.ts';

const run = promisify(execFile);
type Tags = Record<string, unknown>;

let workDir = '';
before(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'forgiving-'));
});
after(() => rmSync(workDir, { recursive: true, force: true }));

async function exiftool(file: string): Promise<Tags> {
  const { stdout } = await run('exiftool', ['-j', '-G1', '-a', '-charset', 'UTF8', file]);
  return (JSON.parse(stdout) as Tags[])[0] ?? {};
}

const template: Template = {
  modes: { headline: 'replace', creditLine: 'replace', copyrightNotice: 'replace' },
  values: [
    { propertytypeids: 'headline', value: 'Neue Schlagzeile' },
    { propertytypeids: 'creditLine', value: 'Agentur Nord' },
    { propertytypeids: 'copyrightNotice', value: '© Agentur Nord 2026' },
  ],
};

/** exiftool-XMP.jpg without its XMP segment: SOI, APP0, Exif, (extra), ICC, APP14, tables, scan. */
const base = (() => {
  const sample = readSample('exiftool-XMP.jpg');
  const segments = headSegments(sample).filter(
    (s) => !(s.marker === 0xe1 && s.payload.subarray(0, XMP_HEADER.length).equals(XMP_HEADER)),
  );
  return {
    app0: encodeSegment(0xe0, segments[0]?.payload ?? Buffer.alloc(0)),
    rest: segments.slice(1).map((s) => encodeSegment(s.marker, s.payload)),
    scan: sample.subarray(sosOffset(sample)),
  };
})();

function jpeg(...extra: Buffer[]): Buffer {
  const [exif, ...rest] = base.rest;
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    base.app0,
    exif ?? Buffer.alloc(0),
    ...extra,
    ...rest,
    base.scan,
  ]);
}

const xmpBody = (inner: string): string =>
  `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">${inner}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
const xmpApp1 = (packet: string | Buffer, header: Buffer = XMP_HEADER): Buffer =>
  encodeSegment(0xe1, Buffer.concat([header, Buffer.from(packet)]));
const text = (record: number, dataset: number, value: string): IimDataset => ({
  record,
  dataset,
  data: Buffer.from(value, 'latin1'),
});
const photoshopApp13 = (datasets: IimDataset[], header: Buffer = PHOTOSHOP_HEADER): Buffer =>
  encodeSegment(
    0xed,
    Buffer.concat([
      header,
      serializePhotoshopResources([
        { signature: '8BIM', id: 0x0404, name: Buffer.alloc(0), data: serializeIim(datasets) },
      ]),
    ]),
  );
/** Old IIM: headline and city. */
const oldIim = [text(2, 105, 'Alte Schlagzeile'), text(2, 90, 'Hamburg')];
const exifGroups = /^(IFD0|IFD1|ExifIFD|GPS|InteropIFD|JFIF|ICC|Adobe):/;

async function stampAndRead(
  name: string,
  input: Buffer,
): Promise<{ tags: Tags; before: Tags; warnings: string[]; output: Buffer }> {
  const { output, warnings } = await stampBuffer(input, template, {}, 4096);
  const [source, target] = [path.join(workDir, `${name}-in.jpg`), path.join(workDir, `${name}-out.jpg`)];
  writeFileSync(source, input);
  writeFileSync(target, output);
  const [before, tags] = [await exiftool(source), await exiftool(target)];
  assert.equal(tags['XMP-photoshop:Headline'], 'Neue Schlagzeile', `${name}: XMP headline`);
  assert.equal(tags['IPTC:Headline'], 'Neue Schlagzeile', `${name}: IIM headline`);
  assert.equal(tags['XMP-photoshop:Credit'], 'Agentur Nord', name);
  assert.equal(tags['IPTC:Credit'], 'Agentur Nord', name);
  const mirrored = ['IFD0:ImageDescription', 'IFD0:Artist', 'IFD0:Copyright'];
  for (const key of Object.keys({ ...before, ...tags }).filter(
    (k) => exifGroups.test(k) && !mirrored.includes(k),
  ))
    assert.deepEqual(tags[key], before[key], `${name}: ${key} unchanged`);
  assert.deepEqual(
    output.subarray(sosOffset(output)),
    input.subarray(sosOffset(input)),
    `${name}: image data`,
  );
  return { tags, before, warnings, output };
}

describe('stamping what ExifTool stamps', () => {
  const unreadable: Array<[string, Buffer]> = [
    ['broken', Buffer.from(xmpBody('<photoshop:City>Bremen</photoshop:City>').slice(0, 300))],
    ['empty', Buffer.alloc(0)],
    [
      'invalid-utf8',
      Buffer.concat([
        Buffer.from(xmpBody('<photoshop:City>K').split('K')[0] ?? ''),
        Buffer.from([0xc3, 0x28]),
      ]),
    ],
    ['doctype', Buffer.from(`<!DOCTYPE x [<!ENTITY a "b">]>${xmpBody('')}`)],
    ['literal', Buffer.from(xmpBody('<dc:title rdf:parseType="Literal"><b>fett</b></dc:title>'))],
  ];
  for (const [name, packet] of unreadable) {
    it(`an unreadable XMP packet (${name}) is dropped with a warning and rebuilt from IIM and the template`, async () => {
      const { tags, warnings } = await stampAndRead(name, jpeg(xmpApp1(packet), photoshopApp13(oldIim)));
      if (name !== 'literal')
        assert.ok(
          warnings.some((w) => /^the XMP packet could not be read/.test(w)),
          warnings.join(),
        );
      assert.equal(tags['XMP-photoshop:City'], 'Hamburg', 'IIM value carried into XMP');
      assert.equal(tags['IPTC:City'], 'Hamburg');
      assert.equal(tags['ExifTool:Warning'], undefined);
    });
  }

  it('keeps padding bytes between segments and stamps', async () => {
    const padding = Buffer.alloc(7, 0x00);
    const { output, warnings } = await stampAndRead('padding', jpeg(padding, photoshopApp13(oldIim)));
    assert.ok(warnings.some((w) => /7 unknown bytes between JPEG segments were kept/.test(w)));
    assert.ok(
      output.includes(Buffer.concat([padding, base.rest[1] ?? Buffer.alloc(0)])),
      'padding kept before the ICC profile',
    );
  });

  it('stamps a file without EOI, keeping every byte, with a warning', async () => {
    const whole = readSample('exiv2-FurnaceCreekInn.jpg');
    const input = whole.subarray(0, whole.length - 500);
    const { warnings } = await stampAndRead('no-eoi', input);
    assert.ok(warnings.some((w) => /no EOI marker/.test(w)));
  });

  for (const [name, header] of [
    ['http without NUL', Buffer.from('http://ns.adobe.com/xap/1.0/', 'latin1')],
    ['XMP\\0', Buffer.from('XMP\0://ns.adobe.com/xap/1.0/\0', 'latin1')],
  ] as const) {
    it(`reads XMP under a legacy header (${name}), merges it and writes the new packet in its place`, async () => {
      const legacy = xmpApp1(
        xmpBody(
          '<photoshop:Headline>Alte Schlagzeile</photoshop:Headline><photoshop:City>Bremen</photoshop:City>',
        ),
        header,
      );
      const { tags, output } = await stampAndRead(`legacy-${name.replace(/\W/g, '')}`, jpeg(legacy));
      assert.equal(tags['XMP-photoshop:City'], 'Bremen', 'legacy value merged');
      assert.ok(!output.includes(Buffer.from('Alte Schlagzeile')), 'the old headline is gone');
    });
  }

  it('reads IIM under the legacy Adobe_Photoshop2.5 header and replaces the segment', async () => {
    const legacyHeader = Buffer.concat([Buffer.from('Adobe_Photoshop2.5:', 'latin1'), Buffer.alloc(8)]);
    const input = jpeg(photoshopApp13(oldIim, legacyHeader));
    const { tags, output } = await stampAndRead('legacy-iim', input);
    assert.equal(tags['IPTC:City'], 'Hamburg');
    assert.equal(tags['XMP-photoshop:City'], 'Hamburg');
    assert.ok(!output.includes(Buffer.from('Adobe_Photoshop2.5:')), 'legacy segment replaced');
    assert.ok(!output.includes(Buffer.from('Alte Schlagzeile')));
  });

  it('merges a second standard XMP packet instead of dropping it', async () => {
    const first = xmpApp1(xmpBody('<photoshop:City>Bremen</photoshop:City>'));
    const second = xmpApp1(
      xmpBody('<photoshop:State>Niedersachsen</photoshop:State><photoshop:City>Celle</photoshop:City>'),
    );
    const { tags, output } = await stampAndRead('second-xmp', jpeg(first, second));
    assert.equal(tags['XMP-photoshop:City'], 'Bremen', 'the first packet wins');
    assert.equal(tags['XMP-photoshop:State'], 'Niedersachsen', 'the second packet adds');
    assert.equal(output.indexOf(XMP_HEADER), output.lastIndexOf(XMP_HEADER), 'one packet written');
  });
});
