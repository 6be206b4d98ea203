// The five example scripts of docs/scripts.md, run as the script step runs them (the sandbox,
// then the changes written by the metadata engine) on the sample pictures.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import { readJpegMetadata, stampJpeg } from '@photorelay/xmp/index';
import { readImage, withCameraSerial } from '../../../test/support/metadata.ts';
import { createScriptSandbox, type ScriptOutput } from '../../adapters/script-sandbox/sandbox.ts';
import { changesAsTemplate, scriptInput } from './processing-step.ts';

const docs = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../../docs/scripts.md'), 'utf8');
const examples = new Map(
  [...docs.matchAll(/```js example=([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1] ?? '', m[2] ?? '']),
);
const sandbox = createScriptSandbox({ timeMs: 2000, memoryBytes: 32 * 1024 * 1024 });
after(() => sandbox.close());
const project = { projectName: 'Desk', destinations: ['Web', 'Print'] };

/** Runs one example on a picture uploaded as `uploadPath`; returns the script output and the written file's metadata. */
async function runExample(name: string, image: Buffer, uploadPath: string) {
  const source = examples.get(name);
  assert.ok(source, `docs/scripts.md has example ${name}`);
  const read = await readJpegMetadata(image);
  const input = scriptInput(read, uploadPath, image.length, project);
  const result = await sandbox.run([{ name: `${name}.script`, source }], input);
  assert.ok(result.ok, JSON.stringify(result));
  const output: ScriptOutput = result.output;
  const template = changesAsTemplate(input.meta, output);
  let written = image;
  if (template) {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await stampJpeg(
      (async function* () {
        yield image;
      })(),
      out,
      template,
    );
    written = Buffer.concat(chunks);
  }
  const meta = await readJpegMetadata(written);
  const value = (id: string) =>
    meta.values
      .filter((v) => v.propertytypeids === id && (v.lang ?? 'x-default') === 'x-default')
      .map((v) => v.value);
  return { output, value };
}

describe('docs/scripts.md examples on the sample pictures', () => {
  test('there are five', () => assert.equal(examples.size, 5));

  test('caption from a file-name pattern', async () => {
    const { value } = await runExample(
      'caption-from-filename',
      readImage('exiftool-IPTC.jpg'),
      '2026-11-23_Berlin_Merkel-speech_0012.jpg',
    );
    assert.deepEqual(value('description'), ['Merkel speech, Berlin, 23.11.2026']);
    assert.deepEqual(value('cityName'), ['Berlin']);
    const other = await runExample('caption-from-filename', readImage('exiftool-IPTC.jpg'), 'IMG_1.jpg');
    assert.deepEqual(other.value('description'), ['A witty caption'], 'other names keep their caption');
    assert.deepEqual(other.output.log, ['no caption pattern in IMG_1.jpg']);
  });

  test('byline by camera serial number', async () => {
    const known = await runExample(
      'byline-by-serial',
      withCameraSerial(readImage('exiv2-empty.jpg'), '4021234'),
      'a.jpg',
    );
    assert.deepEqual(known.value('creatorNames'), ['Jane Doe']);
    assert.deepEqual(known.value('creditLine'), ['Agency / Jane Doe']);
    const unknown = await runExample('byline-by-serial', readImage('exiftool-XMP.jpg'), 'b.jpg');
    assert.deepEqual(unknown.output.log, ['unknown camera serial undefined']);
  });

  test('route by subfolder', async () => {
    const web = await runExample('route-by-folder', readImage('exiftool-GPS.jpg'), 'web/match/a.jpg');
    assert.deepEqual(web.output.skipped, ['Print']);
    const print = await runExample('route-by-folder', readImage('exiftool-GPS.jpg'), 'Print/a.jpg');
    assert.deepEqual(print.output.skipped, ['Web']);
    const top = await runExample('route-by-folder', readImage('exiftool-GPS.jpg'), 'a.jpg');
    assert.deepEqual(top.output.skipped, []);
    const hidden = await runExample('route-by-folder', readImage('exiftool-GPS.jpg'), 'private/a.jpg');
    assert.equal(hidden.output.rejected, 'private folder');
  });

  test('keywords from the folder name', async () => {
    const { value } = await runExample(
      'keywords-from-folder',
      readImage('exiftool-PhotoMechanic.jpg'),
      'Bundesliga_Hertha-Bayern/DCIM/100CANON/IMG_1.jpg',
    );
    const keywords = value('keywords');
    for (const word of ['Bundesliga', 'Hertha', 'Bayern'])
      assert.ok(keywords.includes(word), keywords.join());
    assert.ok(keywords.includes('Keywords'), 'the picture keeps its own keywords');
    assert.ok(!keywords.includes('DCIM') && !keywords.includes('100CANON'));
  });

  test('uppercase city', async () => {
    const { value } = await runExample(
      'uppercase-city',
      readImage('IPTC-PhotometadataRef-Std2025.1.jpg'),
      'a.jpg',
    );
    assert.deepEqual(value('cityName'), ['CITY (CORE) (REF2025.1)']);
    assert.deepEqual(value('headline'), ['The Headline (ref2025.1)'], 'other values stay');
  });

  test('exif.get reads the GPS position and time of the sample pictures', async () => {
    const source =
      "log([exif.get('GPSLatitude'), exif.get('GPSLongitude'), exif.get('GPSAltitude'), exif.get('GPSTimeStamp'), exif.get('GPSDateStamp'), typeof exif.get('GPSLatitude')].join(' '))";
    const logOf = async (image: string) => {
      const read = await readJpegMetadata(readImage(image));
      const result = await sandbox.run(
        [{ name: 'gps.script', source }],
        scriptInput(read, 'a.jpg', 1, project),
      );
      assert.ok(result.ok, JSON.stringify(result));
      return result.output.log[0];
    };
    // exiftool -n: 54.9896666666667 -1.91416666666667, 14:58:24; 36.4483333333333 -116.855 -14.28 09:54:28 2008:05:08
    assert.equal(await logOf('exiftool-GPS.jpg'), '54.9896667 -1.9141667  14:58:24  number');
    assert.equal(
      await logOf('exiv2-FurnaceCreekInn.jpg'),
      '36.4483333 -116.855 -14.28 09:54:28 2008:05:08 number',
    );
    assert.equal(await logOf('exiftool-IPTC.jpg'), '     undefined');
  });
});
