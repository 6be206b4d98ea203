// Where the CPU time of stamping one file goes, against fs.copyFile (issue 15, session 9). In one
// run, interleaved, CPU medians (user + system, all threads):
//   - fs.copyFile: the kernel copies (copy_file_range), the goal's yardstick;
//   - the data through user space: readSync/writeSync in 128 KB blocks with the head shifted, as
//     the stamp thread moves the image data (the floor of any stamping written in JavaScript);
//   - the data by the kernel at an offset: copy_file_range(in, offset, out, offset') through a
//     30-line N-API addon built here with gcc (Node has no offset-aware copy_file_range or
//     sendfile); the row is left out when no compiler or Node headers are found. Not used by the
//     product: it shows what a native copy would save;
//   - stampJpegFile on a stamp thread with an empty template on a file without metadata (the
//     plumbing: thread hop, messages, segment reading, writes);
//   - the same on the benchmark's file (IPTC reference head, 25-field template), as the server stamps;
//   - the engine alone on that head, in memory (stampSegments; bench/stamp/engine.ts).
// Usage: npx tsx bench/stamp/floor.ts [--mb 5] [--rounds 101] [--warmup 200]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { stampJpegFile } from '@photorelay/xmp/index';
import { stampSegments } from '../../packages/xmp/src/stamp-segments.ts';
import { images, jpegMetadataOf, median, option } from './common.ts';
import { template } from './fields.ts';
import { makeFrame, metadataHead, standardTables, writeSyntheticJpeg } from './synthetic-jpeg.ts';

const MB = 1024 * 1024;
const size = option('mb', 5) * MB;
const rounds = option('rounds', 101);
const warmup = option('warmup', 200);
const BLOCK = 128 * 1024;

const addonSource = `#define _GNU_SOURCE
#include <node_api.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>
static napi_value copy_range(napi_env env, napi_callback_info info) {
  size_t argc = 5; napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t in, out; int64_t from, to, length, done = 0;
  napi_get_value_int32(env, argv[0], &in); napi_get_value_int64(env, argv[1], &from);
  napi_get_value_int32(env, argv[2], &out); napi_get_value_int64(env, argv[3], &to);
  napi_get_value_int64(env, argv[4], &length);
  __off64_t a = from, b = to;
  while (done < length) {
    ssize_t n = copy_file_range(in, &a, out, &b, (size_t)(length - done), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) { napi_throw_error(env, NULL, strerror(errno)); return NULL; }
    if (n == 0) break;
    done += n;
  }
  napi_value result; napi_create_int64(env, done, &result); return result;
}
NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "copyRange", NAPI_AUTO_LENGTH, copy_range, NULL, &fn);
  napi_set_named_property(env, exports, "copyRange", fn);
  return exports;
}
`;
type CopyRange = (input: number, from: number, output: number, to: number, length: number) => number;

/** The addon, built in `dir`; undefined when there is no compiler or no Node headers. */
function buildAddon(dir: string): CopyRange | undefined {
  const headers = path.resolve(path.dirname(process.execPath), '../include/node');
  if (!existsSync(path.join(headers, 'node_api.h'))) return undefined;
  try {
    writeFileSync(path.join(dir, 'copy-range.c'), addonSource);
    const built = path.join(dir, 'copy-range.node');
    execFileSync(
      'gcc',
      ['-O2', '-shared', '-fPIC', `-I${headers}`, '-o', built, path.join(dir, 'copy-range.c')],
      {
        stdio: 'ignore',
      },
    );
    return (createRequire(import.meta.url)(built) as { copyRange: CopyRange }).copyRange;
  } catch {
    return undefined;
  }
}

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
  const copyRange = buildAddon(dir);
  const byKernel = copyRange
    ? () => {
        const input = openSync(file, 'r');
        const total = fstatSync(input).size;
        const output = openSync(out, 'w');
        writeSync(output, head, 0, headLength + 1000);
        copyRange(input, headLength, output, headLength + 1000, total - headLength);
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
    ...(byKernel ? { 'data by the kernel at an offset (copy_file_range, addon)': byKernel } : {}),
    'stamp thread, no metadata, empty template (plumbing)': () =>
      stampJpegFile(bare, out, empty, { timeLimitMs: 10_000 }),
    'stamp thread, reference head, 25 fields (server)': () =>
      stampJpegFile(file, out, template, { filename: 'in.jpg', timeLimitMs: 10_000 }),
    'engine alone on the reference head, in memory': () =>
      stampSegments(found, template, { filename: 'in.jpg' }),
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(methods).map((name) => [name, []]));
  const system: Record<string, number[]> = Object.fromEntries(Object.keys(methods).map((name) => [name, []]));
  for (const run of Object.values(methods)) for (let i = 0; i < warmup; i++) await run();
  const names = Object.keys(methods);
  for (let round = 0; round < rounds; round++)
    for (const name of round % 2 ? names : [...names].reverse()) {
      const cpu = process.cpuUsage();
      await methods[name]?.();
      const used = process.cpuUsage(cpu);
      times[name]?.push((used.user + used.system) / 1000);
      system[name]?.push(used.system / 1000);
    }
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
  if (!byKernel) console.log('\n(no kernel-copy row: gcc or the Node headers were not found)');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
