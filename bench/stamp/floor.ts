// Where the CPU time of stamping one file goes, against fs.copyFile (issue 15, session 9). In one
// run, interleaved, CPU medians (user + system, all threads):
//   - fs.copyFile: the kernel copies (copy_file_range), the goal's yardstick;
//   - the data through user space: readSync/writeSync in 128 KB blocks with the head shifted, as
//     the stamp thread moves the image data (the floor of any stamping written in JavaScript);
//   - the data by the kernel at an offset: copy_file_range(in, offset, out) as the stamp thread
//     calls it since session 10 (packages/xmp/src/kernel-copy.ts, through koffi; Node has no
//     offset-aware copy_file_range or sendfile); the row is left out where it is not available;
//   - stampJpegFile on a stamp thread with an empty template on a file without metadata (the
//     plumbing: thread hop, messages, segment reading, writes);
//   - the same on the benchmark's file (IPTC reference head, 25-field template), as the server stamps,
//     with the image data moved by the kernel and, for comparison, through user space;
//   - the engine alone on that head, in memory (stampSegments; bench/stamp/engine.ts).
// Usage: npx tsx bench/stamp/floor.ts [--mb 5] [--rounds 101] [--warmup 200]
import * as fs from 'node:fs';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { stampJpegFile } from '@photorelay/xmp/index';
import { copyRange, kernelCopyAvailable } from '../../packages/xmp/src/kernel-copy.ts';
import { stampSegments } from '../../packages/xmp/src/stamp-segments.ts';
import { cpuInTurns, images, jpegMetadataOf, median, option } from './common.ts';
import { template } from './fields.ts';
import { makeFrame, metadataHead, standardTables, writeSyntheticJpeg } from './synthetic-jpeg.ts';

const MB = 1024 * 1024;
const size = option('mb', 5) * MB;
const rounds = option('rounds', 101);
const warmup = option('warmup', 200);
const BLOCK = 128 * 1024;

/**
 * The image data after `skip` bytes of `file` moved into `out` behind `head` (a head of another
 * length), in blocks through user space, as the stamp thread moves it. Self-contained: the worker
 * below runs its source.
 */
function moveShifted(io: typeof fs, file: string, out: string, head: Buffer, skip: number, block: Buffer) {
  const input = io.openSync(file, 'r');
  const total = io.fstatSync(input).size;
  const output = io.openSync(out, 'w');
  io.writeSync(output, head);
  for (let at = skip; at < total; ) {
    const n = io.readSync(input, block, 0, Math.min(block.length, total - at), at);
    for (let done = 0; done < n; ) done += io.writeSync(output, block, done, n - done);
    at += n;
  }
  io.closeSync(output);
  io.closeSync(input);
}

const dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'photorelay-bench-floor-'));
try {
  const frame = makeFrame(standardTables(readFileSync(path.join(images, 'exiv2-FurnaceCreekInn.jpg'))));
  const sample = readFileSync(path.join(images, 'IPTC-PhotometadataRef-Std2025.1.jpg'));
  const file = path.join(dir, 'in.jpg');
  await writeSyntheticJpeg(file, metadataHead(sample), frame, size);
  const bare = path.join(dir, 'bare.jpg');
  await writeSyntheticJpeg(bare, [], frame, size);
  const out = path.join(dir, 'out.jpg');
  const headLength = 40_000; // about what the stamped reference head takes
  const head = Buffer.alloc(headLength + 1000, 0x20);
  const block = Buffer.allocUnsafe(BLOCK);
  const userSpace = () => moveShifted(fs, file, out, head, headLength, block);
  // The same copy on a worker thread, one message there and one back per file (as the stamp
  // thread gets its files): the very function above, sent as source (it uses nothing but its
  // arguments).
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const fs = require('node:fs');
     const moveShifted = ${moveShifted.toString()};
     const block = Buffer.allocUnsafe(${BLOCK});
     const head = Buffer.alloc(${head.length}, 0x20);
     parentPort.on('message', ({ file, out }) => {
       moveShifted(fs, file, out, head, ${headLength}, block);
       parentPort.postMessage(0);
     });`,
    { eval: true },
  );
  const onWorker = () =>
    new Promise((resolve) => {
      worker.once('message', resolve);
      worker.postMessage({ file, out });
    });
  const byKernel = kernelCopyAvailable()
    ? () => {
        const input = openSync(file, 'r');
        const total = fstatSync(input).size;
        const output = openSync(out, 'w');
        writeSync(output, head, 0, headLength + 1000);
        copyRange(input, headLength, output, total - headLength);
        closeSync(output);
        closeSync(input);
      }
    : undefined;
  const found = await jpegMetadataOf(sample);
  const empty = { modes: {}, values: [] };
  const methods: Record<string, () => unknown> = {
    'fs.copyFile': () => copyFile(file, out),
    'data through user space (128 KB readSync/writeSync)': userSpace,
    'data through user space on a worker thread (a message each way)': onWorker,
    ...(byKernel ? { 'data by the kernel at an offset (copy_file_range through koffi)': byKernel } : {}),
    'stamp thread, no metadata, empty template (plumbing)': () =>
      stampJpegFile(bare, out, empty, { timeLimitMs: 10_000 }),
    'stamp thread, reference head, 25 fields (server)': () =>
      stampJpegFile(file, out, template, { filename: 'in.jpg', timeLimitMs: 10_000 }),
    'the same, image data through user space (kernelCopy: false)': () =>
      stampJpegFile(file, out, template, { filename: 'in.jpg', timeLimitMs: 10_000, kernelCopy: false }),
    'engine alone on the reference head, in memory': () =>
      stampSegments(found, template, { filename: 'in.jpg' }),
  };
  const names = Object.keys(methods);
  const measured = await cpuInTurns(methods, warmup, rounds);
  const times = Object.fromEntries(names.map((name) => [name, measured[name]?.cpu ?? []]));
  const system = Object.fromEntries(names.map((name) => [name, measured[name]?.system ?? []]));
  const copyMs = median(times['fs.copyFile'] ?? []);
  console.log(
    `${(size / MB).toFixed(0)} MB, ${rounds} rounds after ${warmup} warm-up calls each, CPU medians; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n\n| method | CPU ms | of it system | vs copyFile |\n|---|---|---|---|`,
  );
  for (const name of names) {
    const ms = median(times[name] ?? []);
    console.log(
      `| ${name} | ${ms.toFixed(2)} | ${median(system[name] ?? []).toFixed(2)} | ${(ms / copyMs).toFixed(2)}× |`,
    );
  }
  await worker.terminate();
  if (!byKernel) console.log('\n(no kernel-copy row: copy_file_range through koffi is not available here)');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
