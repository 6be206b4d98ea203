import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { SFTPWrapper } from 'ssh2';
import { parallelPut } from './sftp-parallel-put.ts';

// parallelPut against a fake SFTP session that behaves like ssh2's: a write above the server's
// limit sends its first packet at once and the rest, read from the same buffer, only after the
// first one's acknowledgement (the real servers are in destination.int.test.ts and
// openssh.int.test.ts).

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-parallel-put-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

function localFile(name: string, size: number) {
  const file = path.join(work, name);
  const bytes = crypto.randomBytes(size);
  fs.writeFileSync(file, bytes);
  return { file, bytes };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

function fakeSession({ maxWriteLen = 40_000, failWrite = 0 } = {}) {
  const state = {
    outgoing: { state: 'open' },
    written: Buffer.alloc(0),
    inFlight: 0,
    maxInFlight: 0,
    writes: 0,
    buffers: new Set<Buffer>(),
    opened: [] as string[],
    closes: 0,
    writesAfterClose: 0,
  };
  const store = (buf: Buffer, off: number, len: number, position: number) => {
    if (state.written.length < position + len)
      state.written = Buffer.concat([state.written, Buffer.alloc(position + len - state.written.length)]);
    buf.copy(state.written, position, off, off + len);
  };
  const session = {
    outgoing: state.outgoing,
    open(remotePath: string, _flags: string, cb: (err: Error | undefined, handle: Buffer) => void) {
      state.opened.push(remotePath);
      setImmediate(() => cb(undefined, Buffer.from('handle')));
    },
    write(_h: Buffer, buf: Buffer, off: number, len: number, position: number, cb: (err?: Error) => void) {
      if (state.closes) state.writesAfterClose++;
      const n = ++state.writes;
      state.buffers.add(buf);
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      const first = Math.min(len, maxWriteLen);
      store(buf, off, first, position);
      void (async () => {
        for (let done = first; done < len; done += maxWriteLen) {
          await tick();
          store(buf, off + done, Math.min(maxWriteLen, len - done), position + done);
        }
        await tick();
        state.inFlight--;
        cb(n === failWrite ? Object.assign(new Error('Failure'), { code: 4 }) : undefined);
      })();
    },
    close(_h: Buffer, cb: (err?: Error) => void) {
      state.closes++;
      assert.equal(state.inFlight, 0, 'closed after every write called back');
      setImmediate(() => cb());
    },
  };
  return { session: session as unknown as SFTPWrapper, state };
}

test('parts are written in order of offset, several at once, each buffer kept until its write is done', async () => {
  const head = localFile('head.bin', 1234);
  const received = localFile('received.jpg', 1_000_003);
  const parts = [
    { file: head.file, start: 0, end: 1234 },
    { file: received.file, start: 4_321, end: 1_000_000 },
    { file: head.file, start: 3, end: 4 },
  ];
  const expected = Buffer.concat([
    head.bytes,
    received.bytes.subarray(4_321, 1_000_000),
    head.bytes.subarray(3, 4),
  ]);
  const { session, state } = fakeSession();
  const progress: number[] = [];
  const sent = await parallelPut(session, parts, 'dir/.a.part', {
    concurrency: 4,
    chunkSize: 100_000,
    onProgress: (b) => progress.push(b),
  });
  assert.equal(sent, expected.length);
  assert.ok(state.written.equals(expected));
  assert.equal(state.writes, Math.ceil(expected.length / 100_000));
  assert.equal(state.maxInFlight, 4);
  assert.equal(state.buffers.size, 4, 'one buffer per slot');
  assert.equal(state.closes, 1);
  assert.equal(progress.at(-1), expected.length);
  assert.deepEqual(state.opened, ['dir/.a.part']);

  // The next file takes the same buffers.
  const again = fakeSession();
  await parallelPut(again.session, parts, 'dir/.b.part', { concurrency: 4, chunkSize: 100_000 });
  assert.ok(again.state.written.equals(expected));
  assert.deepEqual([...again.state.buffers].filter((b) => state.buffers.has(b)).length, 4);
});

test('empty sources open and close the remote file, writing nothing', async () => {
  const empty = localFile('empty.bin', 0);
  for (const parts of [[], [{ file: empty.file, start: 0, end: 0 }]]) {
    const { session, state } = fakeSession();
    assert.equal(await parallelPut(session, parts, 'e', { concurrency: 8, chunkSize: 262_144 }), 0);
    assert.deepEqual([state.opened.length, state.writes, state.closes], [1, 0, 1]);
  }
});

test('a failed write stops the others, closes the remote file once all have called back, and rejects', async () => {
  const big = localFile('big.jpg', 2_000_000);
  const { session, state } = fakeSession({ failWrite: 3 });
  await assert.rejects(
    parallelPut(session, [{ file: big.file, start: 0, end: 2_000_000 }], 'f', {
      concurrency: 4,
      chunkSize: 100_000,
    }),
    { message: 'Failure' },
  );
  assert.equal(state.closes, 1);
  assert.equal(state.writesAfterClose, 0);
  assert.ok(state.writes < 20, `stopped early (${state.writes} writes)`);
});

test('a missing local file fails before the remote file is opened; a closed channel fails at once', async () => {
  const missing = path.join(work, 'gone.jpg');
  const { session, state } = fakeSession();
  await assert.rejects(
    parallelPut(session, [{ file: missing, start: 0, end: 5 }], 'g', { concurrency: 8, chunkSize: 1000 }),
    {
      message: `Local file missing: ${missing}`,
    },
  );
  assert.deepEqual(state.opened, []);

  const small = localFile('small.bin', 10);
  state.outgoing.state = 'closed';
  await assert.rejects(
    parallelPut(session, [{ file: small.file, start: 0, end: 10 }], 'g', { concurrency: 8, chunkSize: 1000 }),
    { message: 'SFTP channel closed' },
  );
});
