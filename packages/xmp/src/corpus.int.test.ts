// The camera-file corpus (issue 26, packages/xmp/test-corpus) against ExifTool as the oracle:
// each file stamped with a rich template; every tag the template does not set reads back the
// same (ExifTool -j -G1 -a before and after, minus the file's own tags and a writer's
// bookkeeping), no XMP property is lost, every MP image (preview, gain map) is byte-identical,
// ExifTool's -validate finds nothing new, and the engine refuses only what ExifTool refuses.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { stampJpegFile } from './stamp-file.ts';
import type { Template } from './template.ts';

const run = promisify(execFile);
type Tags = Record<string, unknown>;
const corpusDir = path.resolve(import.meta.dirname, '../test-corpus/files');

const template: Template = {
  modes: {
    headline: 'replace',
    description: 'append',
    creatorNames: 'replace',
    copyrightNotice: 'replace',
    creditLine: 'replace',
    keywords: 'merge',
    cityName: 'replace',
    countryName: 'replace',
    eventName: 'replace',
    usageTerms: 'replace',
  },
  values: [
    { propertytypeids: 'headline', value: 'Finale – Köln gegen München' },
    { propertytypeids: 'description', value: '(Foto: Agentur Nord)' },
    { propertytypeids: 'creatorNames', value: 'Jürgen Weiß' },
    { propertytypeids: 'copyrightNotice', value: '© 2026 Agentur Nord' },
    { propertytypeids: 'creditLine', value: 'Agentur Nord' },
    { propertytypeids: 'keywords', value: 'Pokal' },
    { propertytypeids: 'cityName', value: 'Köln' },
    { propertytypeids: 'countryName', value: 'Deutschland' },
    { propertytypeids: 'eventName', value: 'Pokalfinale 2026', lang: 'x-default' },
    { propertytypeids: 'usageTerms', value: 'Nur redaktionell', lang: 'x-default' },
  ],
};

/** Tag names (in any group: XMP, IIM, EXIF mirror, trailer IIM) the template sets. */
const setByTemplate = new Set([
  'Headline',
  'Description',
  'Caption-Abstract',
  'ImageDescription',
  'Creator',
  'By-line',
  'Artist',
  'Rights',
  'CopyrightNotice',
  'Copyright',
  'Credit',
  'Subject',
  'Keywords',
  'City',
  'Country',
  'Country-PrimaryLocationName',
  'Event',
  'UsageTerms',
]);
/** The file's own tags and a writer's bookkeeping: digests, toolkit, IIM record versions, where MP images start. */
const bookkeeping =
  /^(SourceFile|System:|File:|ExifTool:|Composite:|XMP-x:XMPToolkit|XMP-xmpNote:HasExtendedXMP|Photoshop:IPTCDigest|XMP-photoshop:LegacyIPTCDigest|IPTC\d?:CodedCharacterSet|IPTC\d?:ApplicationRecordVersion|IPTC\d?:EnvelopeRecordVersion|MPImage\d+:MPImageStart|MPImage\d+:MPImageLength|MPF0:PreviewImage)/;
/**
 * New tags a stamping may add: IIM values copied into XMP and XMP values into IIM (MWG keeps
 * them in step), and the full new IIM in a trailer's copy (IPTC2). Lost or changed ones count.
 */
const derived = /^(XMP-[\w-]+|IPTC2?):/;
const templateTag = (key: string) => setByTemplate.has(key.replace(/^[^:]*:/, ''));

let workDir = '';
before(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'corpus-'));
});
after(() => process.env.KEEP || rmSync(workDir, { recursive: true, force: true }));

async function readTags(files: string[]): Promise<Map<string, Tags>> {
  const { stdout } = await run('exiftool', ['-j', '-G1', '-a', '-s', '-charset', 'UTF8', ...files], {
    maxBuffer: 256 * 1024 * 1024,
  });
  return new Map((JSON.parse(stdout) as Tags[]).map((tags) => [String(tags.SourceFile), tags]));
}

/** ExifTool's -validate warnings by file (the IPTC digest's staleness, which stamping fixes, left out). */
async function validateWarnings(files: string[]): Promise<Map<string, string[]>> {
  const { stdout } = await run('exiftool', ['-a', '-s3', '-validate', '-warning', '-error', ...files], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const out = new Map<string, string[]>(files.length === 1 ? [[files[0] as string, []]] : []);
  let current = files.length === 1 ? (files[0] as string) : '';
  for (const line of stdout.split('\n')) {
    const header = /^======== (.*)$/.exec(line);
    if (header) {
      current = header[1] as string;
      out.set(current, []);
    } else if (
      line !== '' &&
      !/image files read|IPTCDigest is not current|^\d+ (Warnings?|Errors?)|^OK/.test(line)
    )
      out.get(current)?.push(line);
  }
  return out;
}

async function exiftoolWrites(file: string): Promise<boolean> {
  try {
    await run('exiftool', [
      '-q',
      '-q',
      '-o',
      path.join(workDir, 'probe.jpg'),
      '-XMP-photoshop:Headline=x',
      file,
    ]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(path.join(workDir, 'probe.jpg'), { force: true });
  }
}

describe('the camera-file corpus, checked with ExifTool', () => {
  const names = readdirSync(corpusDir)
    .filter((name) => name.endsWith('.jpg'))
    .sort();

  it('changes no tag the template does not set, loses no XMP, keeps every MP image, adds no -validate warning', async () => {
    assert.ok(names.length >= 25, `${names.length} corpus files`);
    const problems: string[] = [];
    const stamped: Array<{ name: string; source: string; target: string }> = [];
    for (const name of names) {
      const source = path.join(corpusDir, name);
      try {
        // As the server stamps: from the file (trailers rewritten), on a stamp thread.
        const target = path.join(workDir, name);
        await stampJpegFile(source, target, template, { filename: name, timeLimitMs: 20_000 });
        stamped.push({ name, source, target });
      } catch (error) {
        if (await exiftoolWrites(source))
          problems.push(`${name}: refused (${(error as Error).message}), ExifTool writes it`);
      }
    }
    const files = stamped.flatMap((s) => [s.source, s.target]);
    const [tags, warnings] = await Promise.all([readTags(files), validateWarnings(files)]);
    let exact = 0;
    for (const { name, source, target } of stamped) {
      const before = tags.get(source) ?? {};
      const after = tags.get(target) ?? {};
      const own: string[] = [];
      for (const key of Object.keys(before)) {
        if (bookkeeping.test(key) || templateTag(key)) continue;
        if (!(key in after)) own.push(`${key} lost`);
        else if (JSON.stringify(after[key]) !== JSON.stringify(before[key]))
          own.push(`${key}: ${JSON.stringify(before[key])} -> ${JSON.stringify(after[key])}`);
      }
      for (const key of Object.keys(after))
        if (!(key in before) && !bookkeeping.test(key) && !templateTag(key) && !derived.test(key))
          own.push(`${key} new`);
      if (after['XMP-photoshop:Headline'] !== 'Finale – Köln gegen München')
        own.push('the template was not written');
      // Every MP image where ExifTool finds it (its file offsets), before and after.
      for (const image of ['MPImage2', 'MPImage3', 'MPImage4'])
        if (`${image}:MPImageStart` in before) {
          const slice = (file: string, tags: Tags) =>
            readFileSync(file).subarray(
              Number(tags[`${image}:MPImageStart`]),
              Number(tags[`${image}:MPImageStart`]) + Number(tags[`${image}:MPImageLength`]),
            );
          const was = slice(source, before);
          if (was.length < 4 || was[0] !== 0xff || was[1] !== 0xd8) own.push(`${image}: not a JPEG before`);
          if (!was.equals(slice(target, after))) own.push(`${image} not byte-identical`);
        }
      const had = warnings.get(source) ?? [];
      for (const warning of warnings.get(target) ?? [])
        if (!had.includes(warning)) own.push(`new -validate warning: ${warning}`);
      if (own.length === 0) exact++;
      else problems.push(...own.map((p) => `${name}: ${p}`));
    }
    console.log(`corpus: ${names.length} files, ${stamped.length} stamped, ${exact} exact`);
    if (problems.length > 0) console.log(problems.join('\n'));
    assert.deepEqual(problems, []);
  });

  it('refuses a file only where ExifTool refuses it too', async () => {
    const canon = readFileSync(path.join(corpusDir, 'canon-powershot-s5.jpg'));
    const broken = {
      'ends-inside-app1': Buffer.concat([
        Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x10, 0x00]),
        Buffer.alloc(100, 0x41),
      ]),
      'cut-in-the-head': canon.subarray(0, 600),
      'segment-length-1': Buffer.concat([
        canon.subarray(0, 2),
        Buffer.from([0xff, 0xe1, 0x00, 0x01]),
        canon.subarray(2),
      ]),
    };
    for (const [name, bytes] of Object.entries(broken)) {
      const source = path.join(workDir, `${name}.jpg`);
      writeFileSync(source, bytes);
      await assert.rejects(stampJpegFile(source, path.join(workDir, `${name}-out.jpg`), template), name);
      assert.equal(await exiftoolWrites(source), false, `${name}: ExifTool refuses it too`);
    }
  });
});
