// ExifTool as the oracle for the EXIF mirror on damaged EXIF: for 300 fuzzed files (the
// same mutations as fuzz.test.ts) every tag ExifTool reports, except the three mirrored IFD0
// texts and the XMP/IPTC we write, reads back identical; the mirrored texts read as written
// unless the engine warned that it left them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { prng, readSample, sampleImages, stampBuffer } from '../test/support.ts';
import { Tiff } from './exif.ts';
import { damageExif, exifBlock } from './exif-damage.ts';
import { exifTextsLeft } from './exif-write.ts';
import { encodeSegment } from './jpeg.ts';
import type { Template } from './template.ts';

const run = promisify(execFile);
/** A few hundred fuzzed files, read by one ExifTool run (about 1 minute on a loaded machine). */
const CASES = 300;
type Tags = Record<string, unknown>;

let workDir = '';
before(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'exif-mirror-'));
});
after(() => rmSync(workDir, { recursive: true, force: true }));

/** ExifTool's tags of several files in one run, by file. */
async function exiftool(files: string[]): Promise<Map<string, Tags>> {
  const { stdout } = await run('exiftool', ['-j', '-G1', '-a', '-n', '-charset', 'UTF8', ...files], {
    maxBuffer: 256 * 1024 * 1024,
  });
  const list = JSON.parse(stdout) as Tags[];
  return new Map(list.map((tags) => [String(tags.SourceFile), tags]));
}

const mirrored = new Set(['IFD0:ImageDescription', 'IFD0:Artist', 'IFD0:Copyright']);
const unrelatedGroups = /^(SourceFile|System:|File:|ExifTool:|XMP-|IPTC:|Photoshop:|Composite:)/;

function otherTags(tags: Tags): Tags {
  return Object.fromEntries(
    Object.entries(tags).filter(([key]) => !mirrored.has(key) && !unrelatedGroups.test(key)),
  );
}

const texts = (n: number) => ({
  description: `Bildbeschreibung ${n} – Köln ✓`,
  creator: `Fotografin ${n}`,
  rights: `© Agentur ${n} ${'x'.repeat(n % 3 === 0 ? 90 : 0)}`,
});

function mirrorTemplate(n: number): Template {
  const t = texts(n);
  return {
    modes: { description: 'replace', creatorNames: 'replace', copyrightNotice: 'replace' },
    values: [
      { propertytypeids: 'description', value: t.description },
      { propertytypeids: 'creatorNames', value: t.creator },
      { propertytypeids: 'copyrightNotice', value: t.rights },
    ],
  };
}

describe('EXIF mirror on damaged EXIF, checked with ExifTool', () => {
  it(`every tag but the mirrored texts reads back identical in ${CASES} fuzzed files`, async () => {
    const random = prng(Number(process.env.FUZZ_SEED ?? 20251103) + 7);
    const samples = sampleImages().filter((name) => exifBlock(readSample(name)));
    const cases: Array<{ source: string; target: string; n: number; warned: boolean }> = [];
    for (let n = 0; n < CASES; n++) {
      const name = samples[n % samples.length] as string;
      const input = damageExif(random, readSample(name));
      assert.ok(input, name);
      const source = path.join(workDir, `${n}-in.jpg`);
      const target = path.join(workDir, `${n}-out.jpg`);
      writeFileSync(source, input);
      const { output, warnings } = await stampBuffer(input, mirrorTemplate(n));
      writeFileSync(target, output);
      cases.push({ source, target, n, warned: warnings.some((w) => w.startsWith('EXIF')) });
    }
    const tags = await exiftool(cases.flatMap((c) => [c.source, c.target]));
    let written = 0;
    for (const { source, target, n, warned } of cases) {
      const [before, stamped] = [tags.get(source) ?? {}, tags.get(target) ?? {}];
      assert.deepEqual(otherTags(stamped), otherTags(before), `case ${n}: other tags`);
      if (warned) continue;
      const expected = texts(n);
      const pairs: Array<[string, string]> = [
        ['IFD0:ImageDescription', expected.description],
        ['IFD0:Artist', expected.creator],
        ['IFD0:Copyright', expected.rights.trim()],
      ];
      for (const [key, value] of pairs) {
        if (!(key in before)) continue;
        assert.equal(String(stamped[key]), value, `case ${n}: ${key}`);
        written++;
      }
    }
    assert.ok(written > CASES, `${written} mirrored texts written`);
  });

  it('warns and leaves EXIF alone when more than 1 MB of segments follow it (a large ICC profile)', async () => {
    const sample = readSample('exiftool-XMP.jpg');
    const block = exifBlock(sample);
    assert.ok(block);
    const exifEnd = block.start + block.length;
    const icc = Array.from({ length: 18 }, (_, i) =>
      encodeSegment(
        0xe2,
        Buffer.concat([
          Buffer.from('ICC_PROFILE\0', 'latin1'),
          Buffer.from([i + 1, 18]),
          Buffer.alloc(65_000, i),
        ]),
      ),
    );
    const input = Buffer.concat([sample.subarray(0, exifEnd), ...icc, sample.subarray(exifEnd)]);
    const source = path.join(workDir, 'icc-in.jpg');
    const target = path.join(workDir, 'icc-out.jpg');
    writeFileSync(source, input);
    const { output, warnings } = await stampBuffer(input, mirrorTemplate(1));
    writeFileSync(target, output);
    assert.ok(
      warnings.some((w) => /^EXIF ImageDescription, Artist and Copyright left unchanged: more than/.test(w)),
      warnings.join('\n'),
    );
    const tags = await exiftool([source, target]);
    const [before, stamped] = [tags.get(source) ?? {}, tags.get(target) ?? {}];
    assert.deepEqual(otherTags(stamped), otherTags(before));
    assert.equal(stamped['IFD0:ImageDescription'], before['IFD0:ImageDescription']);
    assert.equal(stamped['XMP-dc:Description'], texts(1).description);
  });

  /** exiftool-XMP.jpg with one IFD0 entry changed in place (`put32` writes in the block's byte order). */
  function withIfd0Entry(
    tag: number,
    change: (put32: (value: number, at: number) => void, entryAt: number, ifd0At: number) => void,
  ): Buffer {
    const input = Buffer.from(readSample('exiftool-XMP.jpg'));
    const at = exifBlock(input);
    assert.ok(at);
    const block = input.subarray(at.start, at.start + at.length);
    const tiff = new Tiff(block);
    const ifd0At = tiff.u32(4) ?? 0;
    const entry = tiff.entries(ifd0At).get(tag);
    assert.ok(entry, `IFD0 tag ${tag}`);
    const put32 = (value: number, at: number) =>
      tiff.little ? block.writeUInt32LE(value, at) : block.writeUInt32BE(value, at);
    change(put32, entry.entryAt, ifd0At);
    return input;
  }

  /** ExifTool's -validate warnings of a file, one per line. */
  async function validateWarnings(file: string): Promise<string[]> {
    const { stdout } = await run('exiftool', ['-a', '-s3', '-validate', '-warning', file]);
    return stdout.split('\n').filter((line) => line !== '' && !/^\d+ Warnings?|^OK/.test(line));
  }

  it('writes the creator into an Artist field the camera wrote empty (count 0), as ExifTool does (issue 26)', async () => {
    // Big-endian (MM): the count is the second word of the entry.
    const input = withIfd0Entry(0x013b, (put32, entryAt) => put32(0, entryAt + 4));
    const source = path.join(workDir, 'empty-artist-in.jpg');
    const target = path.join(workDir, 'empty-artist-out.jpg');
    writeFileSync(source, input);
    const { output } = await stampBuffer(input, mirrorTemplate(4));
    writeFileSync(target, output);
    const tags = await exiftool([source, target]);
    const [before, stamped] = [tags.get(source) ?? {}, tags.get(target) ?? {}];
    assert.equal(stamped['IFD0:Artist'], texts(4).creator);
    assert.deepEqual(otherTags(stamped), otherTags(before));
    assert.deepEqual(await validateWarnings(target), await validateWarnings(source));
  });

  it('leaves IFD0 in place, with a warning, when a wrong pointer leads into it: no bogus tags, no new -validate warning (issue 26)', async () => {
    const input = withIfd0Entry(0x8769, (put32, entryAt, ifd0At) => put32(ifd0At, entryAt + 8));
    const source = path.join(workDir, 'wrong-pointer-in.jpg');
    const target = path.join(workDir, 'wrong-pointer-out.jpg');
    writeFileSync(source, input);
    const { output, warnings } = await stampBuffer(input, mirrorTemplate(5));
    writeFileSync(target, output);
    const tags = await exiftool([source, target]);
    const [before, stamped] = [tags.get(source) ?? {}, tags.get(target) ?? {}];
    assert.deepEqual(otherTags(stamped), otherTags(before));
    assert.deepEqual(await validateWarnings(target), await validateWarnings(source));
    assert.ok(
      warnings.some((w) => /^EXIF .* left unchanged: another IFD pointer leads into the IFD0 table/.test(w)),
      warnings.join('\n'),
    );
  });
});

describe('EXIF mirror never left silently (issue 26)', () => {
  const stampTo = async (name: string, input: Buffer) => {
    const source = path.join(workDir, `${name}-in.jpg`);
    const target = path.join(workDir, `${name}-out.jpg`);
    writeFileSync(source, input);
    const stamped = await stampBuffer(input, mirrorTemplate(6));
    writeFileSync(target, stamped.output);
    return { source, target, warnings: stamped.warnings };
  };
  const validate = async (file: string) =>
    (await run('exiftool', ['-a', '-s3', '-validate', '-warning', file])).stdout
      .split('\n')
      .filter((line) => line !== '' && !/^\d+ Warnings?|^OK/.test(line));

  it('an Artist stored as another type (EXIF 3.0 UTF-8, 129) is left as it is, and said', async () => {
    const input = Buffer.from(readSample('exiftool-XMP.jpg'));
    const at = exifBlock(input);
    assert.ok(at);
    const block = input.subarray(at.start, at.start + at.length);
    const tiff = new Tiff(block);
    const artist = tiff.entries(tiff.u32(4) ?? 0).get(0x013b);
    assert.ok(artist);
    if (tiff.little) block.writeUInt16LE(129, artist.entryAt + 2);
    else block.writeUInt16BE(129, artist.entryAt + 2);
    const { source, target, warnings } = await stampTo('utf8-artist', input);
    assert.deepEqual(exifTextsLeft(warnings), ['Artist'], warnings.join('\n'));
    const tags = await exiftool([source, target]);
    assert.deepEqual(otherTags(tags.get(target) ?? {}), otherTags(tags.get(source) ?? {}));
    assert.equal(tags.get(target)?.['IFD0:Copyright'], texts(6).rights.trim());
    const before = await validate(source);
    assert.deepEqual(
      (await validate(target)).filter((w) => !before.includes(w)),
      [],
      'no new -validate warning',
    );
  });

  it('an Exif segment whose TIFF header is broken is left as it is, and said', async () => {
    const input = Buffer.from(readSample('exiftool-XMP.jpg'));
    const at = exifBlock(input);
    assert.ok(at);
    input.write('XX', at.start, 'latin1');
    const { warnings } = await stampTo('broken-header', input);
    assert.deepEqual(
      exifTextsLeft(warnings),
      ['ImageDescription', 'Artist', 'Copyright'],
      warnings.join('\n'),
    );
  });

  it('exifTextsLeft reads every form of the warning, and nothing else', () => {
    assert.deepEqual(
      exifTextsLeft([
        'EXIF Copyright, Artist left unchanged: the IFD0 table is cut short',
        'EXIF ImageDescription, Artist and Copyright left unchanged: more than 1048576 bytes of segments follow the Exif block',
        'Headline is 300 bytes',
      ]),
      ['ImageDescription', 'Artist', 'Copyright'],
    );
    assert.deepEqual(exifTextsLeft(['Headline is 300 bytes']), []);
  });
});
