import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { countingSource, isTemporaryName, localParts, partsStream, temporaryName } from './upload-helpers.ts';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-upload-helpers-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

function writeFile(name: string, bytes: Buffer): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('temporary names are hidden, tagged with the job or random, and recognized', () => {
  assert.equal(temporaryName('IMG_1.JPG', 'job42'), '.IMG_1.JPG.job42.part');
  assert.match(temporaryName('IMG_1.JPG'), /^\.IMG_1\.JPG\.[0-9a-f]{8}\.part$/);
  // A tag that is no plain word is not put into a remote file name.
  assert.match(temporaryName('IMG_1.JPG', '../x'), /^\.IMG_1\.JPG\.[0-9a-f]{8}\.part$/);
  for (const name of [temporaryName('a.jpg', 'job7'), temporaryName('a.jpg')])
    assert.ok(isTemporaryName(name));
  for (const name of ['IMG_1.JPG', '.IMG_1.JPG', 'IMG_1.JPG.part', '.a.jpg.job 7.part'])
    assert.equal(isTemporaryName(name), false, name);
});

test('parts stream: the ranges in order, byte for byte, empty ones skipped', async () => {
  const head = crypto.randomBytes(1234);
  const body = crypto.randomBytes(3_000_001);
  const headFile = writeFile('head.bin', head);
  const bodyFile = writeFile('body.bin', body);
  const parts = [
    { file: headFile, start: 0, end: head.length },
    { file: bodyFile, start: 5, end: 5 },
    { file: bodyFile, start: 12_345, end: body.length - 7 },
    { file: headFile, start: 17, end: 18 },
  ];
  const expected = Buffer.concat([head, body.subarray(12_345, body.length - 7), head.subarray(17, 18)]);
  assert.ok((await readAll(partsStream(parts))).equals(expected));
  assert.equal((await readAll(partsStream([]))).length, 0);

  let progress = 0;
  const counted = countingSource(parts, (b) => {
    progress = b;
  });
  assert.ok((await readAll(counted.stream)).equals(expected));
  assert.equal(counted.bytes(), expected.length);
  assert.equal(progress, expected.length);
});

test('parts stream: a missing or short file ends it with an error', async () => {
  const head = writeFile('head2.bin', crypto.randomBytes(100));
  const missing = path.join(work, 'missing.bin');
  await assert.rejects(
    readAll(
      partsStream([
        { file: head, start: 0, end: 100 },
        { file: missing, start: 0, end: 10 },
      ]),
    ),
    { message: `Local file missing: ${missing}` },
  );
  await assert.rejects(readAll(partsStream([{ file: head, start: 50, end: 200 }])), /shorter than its part/);
  // Through the counter too (the FTP client's stream).
  await assert.rejects(
    readAll(countingSource([{ file: missing, start: 0, end: 10 }]).stream),
    /Local file missing/,
  );
});

test('parts stream: destroyed halfway, it closes the file it was reading', async () => {
  const file = writeFile('big.bin', crypto.randomBytes(3_000_000));
  const openFds = () => fs.readdirSync('/proc/self/fd').length;
  const before = openFds();
  const stream = partsStream([{ file, start: 1, end: 3_000_000 }]);
  for await (const _chunk of stream) break; // destroys the stream
  for (let i = 0; i < 100 && openFds() > before; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(openFds(), before);
});

test('local parts: a path is its whole file; missing files and ranges beyond the end are refused', async () => {
  const file = writeFile('whole.bin', crypto.randomBytes(777));
  assert.deepEqual(await localParts(file), [{ file, start: 0, end: 777 }]);
  const empty = writeFile('empty.bin', Buffer.alloc(0));
  assert.deepEqual(await localParts(empty), [{ file: empty, start: 0, end: 0 }]);
  const parts = [
    { file, start: 0, end: 10 },
    { file, start: 10, end: 777 },
  ];
  assert.equal(await localParts(parts), parts);
  const missing = path.join(work, 'nope.bin');
  await assert.rejects(localParts(missing), { message: `Local file missing: ${missing}` });
  await assert.rejects(localParts([...parts, { file: missing, start: 0, end: 1 }]), /Local file missing/);
  await assert.rejects(
    localParts([{ file, start: 700, end: 778 }]),
    /has no bytes 700 to 778 \(it has 777\)/,
  );
  await assert.rejects(localParts([{ file, start: 5, end: 4 }]), /has no bytes/);
});
