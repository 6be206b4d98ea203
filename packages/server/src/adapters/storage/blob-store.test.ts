import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLocalBlobStore, SizeLimitError } from './blob-store.ts';

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
  assert.ok(fs.readFileSync(store.localPath(blob.key)).equals(data));
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
