// The image data moved by the kernel (copy_file_range through koffi) and the user-space copy it
// falls back to write the same bytes; the kernel really does the copy where it can (far fewer
// write calls), and a file it cannot copy (a pipe) falls back without losing a byte.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fullTemplate, readSample, stampBuffer } from '../test/support.ts';
import { copyRange, kernelCopyAvailable } from './kernel-copy.ts';
import { stampFileSync, stampJpegFile } from './stamp-file.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kernel-copy-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const linux = process.platform === 'linux';

/** Write calls of this process so far (Linux: copy_file_range counts as one). */
const writeCalls = (): number => Number(/syscw:\s*(\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);

/** A JPEG of several data blocks (9 MB of scan-like bytes without FF) whose head spans more than the first block. */
function bigJpeg(): Buffer {
  const sample = readSample('IPTC-PhotometadataRef-Std2025.1.jpg');
  const filler = Array.from({ length: 6 }, (_, i) => {
    const segment = Buffer.alloc(50_004, 0x41 + i);
    segment.writeUInt16BE(0xffe2, 0);
    segment.writeUInt16BE(50_002, 2);
    return segment;
  });
  const scan = Buffer.alloc(9 * 1024 * 1024 + 4321);
  for (let i = 0; i < scan.length; i++) scan[i] = ((i * 2246822519) >>> 25) & 0xfe;
  const end = sample.length - 2;
  return Buffer.concat([
    sample.subarray(0, 2),
    ...filler,
    sample.subarray(2, end),
    scan,
    sample.subarray(end),
  ]);
}

describe('kernel copy', () => {
  it('is there on Linux (koffi installed with the package)', { skip: !linux && 'Linux only' }, () => {
    assert.equal(kernelCopyAvailable(), true);
  });

  it('copies from an offset to the output position, stops where the input ends, falls back for a pipe, names other failures', {
    skip: !linux && 'Linux only',
  }, () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) & 0xff));
    const source = path.join(dir, 'source.bin');
    writeFileSync(source, bytes);
    const input = openSync(source, 'r');
    const target = path.join(dir, 'target.bin');
    const output = openSync(target, 'w');
    try {
      writeSync(output, Buffer.from('head'));
      assert.equal(copyRange(input, 1000, output, 100_000), 100_000);
      // More asked for than is left: what is there.
      assert.equal(copyRange(input, 250_000, output, 80_000), 50_000);
      const written = readFileSync(target);
      assert.ok(
        written.equals(
          Buffer.concat([Buffer.from('head'), bytes.subarray(1000, 101_000), bytes.subarray(250_000)]),
        ),
      );
    } finally {
      closeSync(output);
      closeSync(input);
    }
    // The kernel cannot copy into a pipe (a FIFO opened for reading and writing does not block):
    // undefined, nothing copied, the caller copies in user space.
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const pipe = openSync(fifo, 'r+');
    const again = openSync(source, 'r');
    const readOnly = openSync(target, 'r');
    try {
      assert.equal(copyRange(again, 0, pipe, 10), undefined);
      // Any other failure is an error named as Node names them (an output opened for reading).
      assert.throws(
        () => copyRange(again, 0, readOnly, 10),
        (error: Error & { code?: string }) => error.code === 'EBADF' && /copy_file_range/.test(error.message),
      );
    } finally {
      closeSync(pipe);
      closeSync(again);
      closeSync(readOnly);
    }
  });

  it('stamps the same bytes by the kernel and through user space, on a stamp thread and here', async () => {
    const big = bigJpeg();
    const input = path.join(dir, 'big.jpg');
    writeFileSync(input, big);
    const template = fullTemplate();
    const streamed = await stampBuffer(big, template, { filename: 'big.jpg' });
    const outputs: Buffer[] = [];
    for (const kernelCopy of [true, false]) {
      const out = path.join(dir, `thread-${kernelCopy}.jpg`);
      const result = await stampJpegFile(input, out, template, {
        filename: 'big.jpg',
        timeLimitMs: 30_000,
        kernelCopy,
      });
      const written = readFileSync(out);
      assert.ok(written.equals(streamed.output), `kernelCopy ${kernelCopy}: byte for byte as stampJpeg`);
      assert.equal(result.size, written.length);
      assert.deepEqual(result.warnings, streamed.warnings);
      outputs.push(written);
    }
    // Here, with the write calls counted: a few with the kernel copy, one per 128 KB block without.
    const calls: number[] = [];
    for (const kernelCopy of [true, false]) {
      const out = path.join(dir, `here-${kernelCopy}.jpg`);
      const before = linux ? writeCalls() : 0;
      await stampFileSync(input, out, template, { filename: 'big.jpg', kernelCopy }, () => {});
      calls.push(linux ? writeCalls() - before : 0);
      assert.ok(readFileSync(out).equals(streamed.output), `here, kernelCopy ${kernelCopy}`);
    }
    if (linux) {
      assert.ok((calls[0] ?? 99) < 10, `kernel copy: ${calls[0]} write calls`);
      assert.ok((calls[1] ?? 0) > 60, `user space: ${calls[1]} write calls`);
    }
  });
});
