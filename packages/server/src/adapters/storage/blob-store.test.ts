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

test('a blob from a file a tool writes, with the size and hash it reports; nothing kept when it fails or miscounts', async () => {
  const data = crypto.randomBytes(1.5 * 1024 * 1024);
  const blob = await store.writeFile(async (file) => {
    fs.writeFileSync(file, data);
    return { size: data.length, sha256: sha(data), note: 'done' };
  });
  assert.equal(blob.result.note, 'done');
  assert.equal(blob.size, data.length);
  assert.equal(blob.sha256, sha(data));
  assert.ok((await store.withLocalFile(blob.key, async (file) => fs.readFileSync(file))).equals(data));

  await assert.rejects(
    store.writeFile(async (file) => {
      fs.writeFileSync(file, data.subarray(0, 1000));
      throw new Error('tool failed');
    }),
    /tool failed/,
  );
  // A size that does not match the file would be stored wrong: refused.
  await assert.rejects(
    store.writeFile(async (file) => {
      fs.writeFileSync(file, data.subarray(0, 20));
      return { size: 10, sha256: sha(data.subarray(0, 10)) };
    }),
    /20 bytes, the writer reported 10/,
  );
  assert.deepEqual(tmpFiles(), []);
  // A writer that took no hash: none is stored, and blobSha256 reads it from the blob.
  const unhashed = await store.writeFile(async (file) => {
    fs.writeFileSync(file, data.subarray(0, 20));
    return { size: 20 };
  });
  assert.equal(unhashed.sha256, null);
  assert.equal(await blobSha256(store, unhashed.key), sha(data.subarray(0, 20)));
});
