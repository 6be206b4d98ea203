import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import sharp from 'sharp';
import { readImage } from '../../../test/support/metadata.ts';
import { decodeBomb } from '../../../test/support/pictures.ts';
import { createPictureScaler, PictureRefusedError, type PictureScaler } from './picture-scaler.ts';

// Issue 25: the scaler's process is judged by the header first, and killed (then started
// again) when a decode overruns its memory or time.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'picture-scaler-'));
const write = (name: string, bytes: Buffer) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
};
const MB = 1024 * 1024;
const scalers: PictureScaler[] = [];
const scaler = (limits: Partial<Parameters<typeof createPictureScaler>[0]>) => {
  const made = createPictureScaler({
    timeMs: 60_000,
    memoryBytes: 768 * MB,
    decodeBytes: 512 * MB,
    ...limits,
  });
  scalers.push(made);
  return made;
};
after(async () => {
  for (const s of scalers) await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const edgeOf = async (bytes: Buffer | null) => {
  assert.ok(bytes);
  const meta = await sharp(bytes).metadata();
  return [meta.format, Math.max(meta.width ?? 0, meta.height ?? 0)];
};

test('the bomb is refused by its header, with the reason; a camera file is scaled; no picture is null', async () => {
  const pictures = scaler({});
  const bomb = write('bomb.jpg', await decodeBomb());
  await assert.rejects(pictures.scale(bomb, { edge: 160, quality: 70 }), (error: unknown) => {
    assert.ok(error instanceof PictureRefusedError);
    assert.match(
      error.reason,
      /14000 × 14000 pixels in 4 components \(progressive JPEG\): decoding it needs 1496 MB, more than the 512 MB allowed/,
    );
    return true;
  });
  const camera = write('camera.jpg', readImage('IPTC-PhotometadataRef-Std2025.1.jpg'));
  assert.deepEqual(await edgeOf(await pictures.scale(camera, { edge: 160, quality: 70 })), ['jpeg', 160]);
  assert.equal(
    await pictures.scale(write('notes.txt', Buffer.from('no picture')), { edge: 160, quality: 70 }),
    null,
  );
});

test('a decode past the memory limit is killed and reported; the next picture gets a new process', async () => {
  // A budget that lets the bomb through: the watchdog has to stop it.
  const pictures = scaler({ decodeBytes: 4096 * MB, memoryBytes: 300 * MB });
  const bomb = write('bomb2.jpg', await decodeBomb());
  await assert.rejects(pictures.scale(bomb, { edge: 160, quality: 70 }), /more than 300 MB of memory/);
  const camera = write('camera2.jpg', readImage('IPTC-PhotometadataRef-Std2025.1.jpg'));
  assert.deepEqual(await edgeOf(await pictures.scale(camera, { edge: 160, quality: 70 })), ['jpeg', 160]);
});

test('a decode past the deadline is killed and reported (the deadline counts from a started process)', async () => {
  // The bomb within budget and memory takes seconds of a core (6 s on an idle one): the deadline stops it.
  const pictures = scaler({ decodeBytes: 4096 * MB, memoryBytes: 4096 * MB, timeMs: 1500 });
  const bomb = write('bomb3.jpg', await decodeBomb());
  const started = Date.now();
  await assert.rejects(pictures.scale(bomb, { edge: 160, quality: 70 }), /took longer than 1500 ms/);
  assert.ok(Date.now() - started < 30_000);
  assert.equal(pictures.pid, undefined, 'the process is gone');
});
