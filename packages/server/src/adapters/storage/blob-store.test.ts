import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { blobSha256, createLocalBlobStore, SizeLimitError } from './blob-store.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-blobs-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
const store = createLocalBlobStore(root);
const sha = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const tmpFiles = () => fs.readdirSync(path.join(root, 'tmp'));

/** Chunks as a socket hands them over, with pauses between some of them. */
async function* trickle(data: Buffer, chunk: number, pauseEvery: number, pauseMs: number) {
  for (let at = 0, n = 0; at < data.length; at += chunk, n++) {
    if (n > 0 && n % pauseEvery === 0) await sleep(pauseMs);
    yield data.subarray(at, at + chunk);
  }
}

test('stores what arrives in pieces with pauses, byte for byte, with size and SHA-256', async () => {
  // 3.3 MiB in 64 KiB chunks, pausing longer than the idle flush every 5 chunks: partial
  // batches are written on their own, full ones together, and the order never changes.
  const data = crypto.randomBytes(3.3 * 1024 * 1024);
  const blob = await store.write(Readable.from(trickle(data, 64 * 1024, 5, 25)));
  assert.equal(blob.size, data.length);
  assert.equal(blob.sha256, sha(data));
  assert.ok((await store.withLocalFile(blob.key, async (file) => fs.readFileSync(file))).equals(data));
  assert.deepEqual(tmpFiles(), []);
});

test('an upload over the limit is refused and leaves nothing behind', async () => {
  const data = crypto.randomBytes(2 * 1024 * 1024);
  await assert.rejects(
    store.write(Readable.from(trickle(data, 64 * 1024, 3, 15)), { maxBytes: 1024 * 1024 }),
    SizeLimitError,
  );
  assert.deepEqual(tmpFiles(), []);
});

test('a stream that breaks off (an aborted upload) leaves nothing behind', async () => {
  async function* broken() {
    yield* trickle(crypto.randomBytes(300 * 1024), 64 * 1024, 2, 15);
    throw new Error('connection reset');
  }
  await assert.rejects(store.write(Readable.from(broken())), /connection reset/);
  assert.deepEqual(tmpFiles(), []);
});

test('reads a range of a blob, tells whether one exists, and forgets a removed one', async () => {
  const data = crypto.randomBytes(100_000);
  const blob = await store.write(Readable.from([data]));
  const chunks: Buffer[] = [];
  for await (const chunk of store.read(blob.key, { start: 10, end: 19 })) chunks.push(chunk as Buffer);
  assert.ok(Buffer.concat(chunks).equals(data.subarray(10, 20)));
  assert.equal(await store.exists(blob.key), true);
  await store.remove(blob.key);
  assert.equal(await store.exists(blob.key), false);
});

test('a spliced blob is its head and the source from an offset: read whole and in ranges, sized, duplicated, removed; the source may go first', async () => {
  const source = crypto.randomBytes(3 * 1024 * 1024 + 7);
  const sourceBlob = await store.write(Readable.from([source]));
  const head = crypto.randomBytes(40_001);
  const start = 12_345;
  const spliced = await store.withLocalFile(sourceBlob.key, (file) =>
    store.writeSpliced(head, { file, start }),
  );
  const expected = Buffer.concat([head, source.subarray(start)]);
  assert.equal(spliced.size, expected.length);
  // The received file is not copied: the data is a hard link to it.
  const linked = (await store.withLocalParts(spliced.key, async (parts) => parts)).map((p) => p.start);
  assert.deepEqual(linked, [0, start]);
  await store.remove(sourceBlob.key);
  const readAll = async (key: string, range?: { start: number; end: number }) => {
    const chunks: Buffer[] = [];
    for await (const chunk of store.read(key, range)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  assert.ok((await readAll(spliced.key)).equals(expected));
  for (const [from, to] of [
    [0, 9],
    [40_000, 40_001], // across the seam
    [39_000, 2_000_000],
    [50_000, expected.length - 1],
    [expected.length - 1, expected.length - 1],
  ] as const)
    assert.ok(
      (await readAll(spliced.key, { start: from, end: to })).equals(expected.subarray(from, to + 1)),
      `${from}-${to}`,
    );
  assert.equal(await store.size(spliced.key), expected.length);
  assert.equal(await store.exists(spliced.key), true);
  assert.equal(await blobSha256(store, spliced.key), sha(expected));
  const parts = await store.withLocalParts(spliced.key, async (p) =>
    Buffer.concat(p.map((part) => fs.readFileSync(part.file).subarray(part.start, part.end))),
  );
  assert.ok(parts.equals(expected));
  assert.ok((await store.withLocalFile(spliced.key, async (file) => fs.readFileSync(file))).equals(expected));
  const copy = await store.duplicate(spliced.key);
  await store.remove(spliced.key);
  assert.equal(await store.exists(spliced.key), false);
  assert.ok((await readAll(copy)).equals(expected));
  await store.remove(copy);
  assert.equal(await store.exists(copy), false);
  assert.deepEqual(tmpFiles(), []);
});

test('a splice beyond the end of its file is refused and leaves nothing behind', async () => {
  const blob = await store.write(Readable.from([crypto.randomBytes(1000)]));
  for (const start of [1001, -1, 1.5])
    await assert.rejects(
      store.withLocalFile(blob.key, (file) => store.writeSpliced(Buffer.from('head'), { file, start })),
      /outside the file/,
    );
  assert.deepEqual(tmpFiles(), []);
  await assert.rejects(store.size('2026/01/01/00000000-0000-0000-0000-000000000000.12'), /ENOENT/);
  assert.throws(() => store.read('2026/01/01/../../etc.12'), /invalid blob key/);
});

test('a new store removes temp files a stopped process left a day ago, and keeps fresh ones', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-blobs-sweep-'));
  try {
    createLocalBlobStore(dir);
    const old = path.join(dir, 'tmp', 'old');
    fs.writeFileSync(old, 'left by a crash');
    fs.writeFileSync(path.join(dir, 'tmp', 'fresh'), 'being written by another process');
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    fs.utimesSync(old, twoDaysAgo, twoDaysAgo);
    createLocalBlobStore(dir);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'tmp')), ['fresh']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('listKeys: blobs and spliced blobs (also a half-made one) written before a time; removeTemp by age', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-blobs-list-'));
  try {
    const s = createLocalBlobStore(dir);
    const whole = await s.write(Readable.from([Buffer.from('a whole file')]));
    const spliced = await s.withLocalFile(whole.key, (file) =>
      s.writeSpliced(Buffer.from('head'), { file, start: 2 }),
    );
    // A crash between linking the data and renaming the head: only `<key>.data` is there.
    const halfMade = `${whole.key.slice(0, 11)}${crypto.randomUUID()}.2`;
    fs.linkSync(path.join(dir, whole.key), path.join(dir, `${halfMade}.data`));
    fs.writeFileSync(path.join(dir, 'tmp', 'left'), 'x');
    const list = async (before: Date) => {
      const keys: string[] = [];
      for await (const key of s.listKeys(before)) keys.push(key);
      return keys.sort();
    };
    assert.deepEqual(await list(new Date(Date.now() - 60_000)), [], 'nothing is older than a minute');
    assert.deepEqual(await list(new Date(Date.now() + 1000)), [whole.key, spliced.key, halfMade].sort());
    assert.equal(await s.removeTemp(new Date(Date.now() - 60_000)), 0);
    assert.equal(await s.removeTemp(new Date(Date.now() + 1000)), 1);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'tmp')), []);
    await s.remove(halfMade);
    assert.deepEqual(await list(new Date(Date.now() + 1000)), [whole.key, spliced.key].sort());
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
