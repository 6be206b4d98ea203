// Stamping itself (issue 15): a 5 MB and a 20 MB JPEG stamped with the 25-field template,
// against fs.copyFile of the same file and ExifTool (-stay_open) in the same run. Methods are
// interleaved per round so load from other processes hits all alike; medians are reported.
// Goal: stamping at most 1.5x copyFile (the server's stampBlob: stampJpegHead and a splice since session 13). The load average and whether libuv does file I/O
// through io_uring (Node 20's default; UV_USE_IO_URING=0 turns it off) are printed with the figures.
// Usage: npx tsx bench/stamp/file.ts [--rounds 15] [--exiftool-rounds 5] [--warmup 200] [--pair]
//   --pair: only fs.copyFile and stampJpegFile (on the caller's thread, and on a stamp thread with
//   the image data moved by the kernel and through user space; the first is the server's call since
//   session 10, which no longer hashes while stamping), so that garbage and background GC of the stream method do not land in
//   their CPU figures. Methods run in reverse order every other round.
//   --warmup: calls of each method before measuring; with 3 the engine was still being compiled
//   during the 5 MB rounds (CPU 13.4 against 9.5 ms with 50, same load), and with 30-60 V8's
//   helper threads still spent ~1.3 ms per file compiling (0.3 ms after 600 files): 200 by
//   default, so the figures are those of a server that has stamped a few hundred files.

import { createHash } from 'node:crypto';
import {
  copyFile,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { link, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { stampJpeg, stampJpegFile, stampJpegHead } from '@photorelay/xmp/index';
import { ExifTool, type WriteTags } from 'exiftool-vendored';
import { images, median, option } from './common.ts';
import { exiftoolTags, template } from './fields.ts';
import { makeFrame, metadataHead, standardTables, writeSyntheticJpeg } from './synthetic-jpeg.ts';

const rounds = option('rounds', 15);
const warmup = option('warmup', 200);
const exiftoolRounds = option('exiftool-rounds', 5);
const MB = 1024 * 1024;
const copy = promisify(copyFile);
const pairOnly = process.argv.includes('--pair');

/** Wall time and the process's CPU time (user + system, all threads) in ms: on a loaded machine the CPU time is the steadier figure. */
async function time(run: () => Promise<unknown>): Promise<[number, number, number]> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await run();
  const used = process.cpuUsage(cpu);
  return [performance.now() - started, (used.user + used.system) / 1000, used.system / 1000];
}

const dir = mkdtempSync(
  path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'photorelay-bench-stampfile-'),
);
const exiftool = new ExifTool({ maxProcs: 1 });
try {
  const frame = makeFrame(standardTables(readFileSync(path.join(images, 'exiv2-FurnaceCreekInn.jpg'))));
  const head = metadataHead(readFileSync(path.join(images, 'IPTC-PhotometadataRef-Std2025.1.jpg')));
  const rows: string[] = [];
  const goal: string[] = [];
  for (const target of [5 * MB, 20 * MB]) {
    const file = path.join(dir, `in-${target / MB}.jpg`);
    await writeSyntheticJpeg(file, head, frame, target);
    const out = path.join(dir, 'out.jpg');
    // stampBlob before session 7: streams through a PassThrough into the blob store, which
    // hashed the bytes on the way; the engine on a stamp thread.
    const streamed = async () => {
      const hash = createHash('sha256');
      const output = createWriteStream(out, { highWaterMark: MB });
      const tap = new PassThrough({ highWaterMark: MB });
      tap.on('data', (chunk: Buffer) => hash.update(chunk));
      tap.pipe(output);
      const closed = new Promise<void>((resolve, reject) => output.on('close', resolve).on('error', reject));
      await stampJpeg(createReadStream(file, { highWaterMark: MB }), tap, template, {
        filename: 'in.jpg',
        timeLimitMs: 10_000,
      });
      await closed;
      return hash.digest('hex');
    };
    const methods: Record<string, () => Promise<unknown>> = {
      'fs.copyFile': () => copy(file, out),
      stampJpegFile: () => stampJpegFile(file, out, template, { filename: 'in.jpg' }),
      // The whole file on a stamp thread (the engine within a time limit, synchronous I/O there):
      // stampBlob's call since session 10 (no hash while stamping; delivery.ts hashes when needed).
      'stampJpegFile, stamp thread': () =>
        stampJpegFile(file, out, template, { filename: 'in.jpg', timeLimitMs: 10_000 }),
      // The server's call since session 13 (stampBlob): the new head made on a stamp thread and
      // written as a file of its own, the image data a hard link to the input (a spliced blob).
      'stampJpegHead + splice, stamp thread': async () => {
        const stamped = await stampJpegHead(file, template, { filename: 'in.jpg', timeLimitMs: 10_000 });
        await writeFile(`${out}.head`, stamped.head);
        await rm(`${out}.data`, { force: true });
        await link(file, `${out}.data`);
      },
      // The same with the image data through user space (where the kernel cannot copy, or before session 10).
      'stampJpegFile, stamp thread, no kernel copy': () =>
        stampJpegFile(file, out, template, { filename: 'in.jpg', timeLimitMs: 10_000, kernelCopy: false }),
    };
    if (!pairOnly) {
      // stampBlob in sessions 7-9: the whole file on a stamp thread, SHA-256 of the bytes on the way.
      methods['stampJpegFile, stamp thread, SHA-256 (server before session 10)'] = () =>
        stampJpegFile(file, out, template, { filename: 'in.jpg', timeLimitMs: 10_000, sha256: true });
      methods['stampJpeg, streams (1 MiB), stamp thread, SHA-256 (server before session 7)'] = streamed;
    }
    const times: Record<string, Array<[number, number, number]>> = Object.fromEntries(
      Object.keys(methods).map((name) => [name, []]),
    );
    for (const run of Object.values(methods)) for (let i = 0; i < warmup; i++) await run();
    // Every other round in reverse order, so no method always follows the same one.
    const entries = Object.entries(methods);
    for (let round = 0; round < rounds; round++)
      for (const [name, run] of round % 2 ? [...entries].reverse() : entries)
        times[name]?.push(await time(run));
    const exiftoolTimes: Array<[number, number, number]> = [];
    const exiftoolOut = (n: number) => path.join(dir, `exiftool-${target}-${n}.jpg`);
    if (!pairOnly)
      await exiftool.write(file, exiftoolTags as WriteTags, { writeArgs: ['-o', exiftoolOut(-1)] });
    for (let round = 0; round < (pairOnly ? 0 : exiftoolRounds); round++)
      exiftoolTimes.push(
        await time(() =>
          exiftool.write(file, exiftoolTags as WriteTags, { writeArgs: ['-o', exiftoolOut(round)] }),
        ),
      );
    const copyTimes = times['fs.copyFile'] ?? [];
    const [copyMs, copyCpu] = [median(copyTimes.map((t) => t[0])), median(copyTimes.map((t) => t[1]))];
    const size = (statSync(file).size / MB).toFixed(1);
    for (const [name, values] of [
      ...Object.entries(times),
      ...(pairOnly ? [] : [['ExifTool -stay_open', exiftoolTimes] as const]),
    ]) {
      const [ms, cpu, system] = [0, 1, 2].map((i) => median(values.map((t) => t[i] ?? 0))) as number[];
      if (name.startsWith('stampJpegHead') || name === 'stampJpegFile, stamp thread')
        goal.push(
          `${size} MB ${name}: CPU ${((cpu ?? 0) / copyCpu).toFixed(2)}×, wall ${((ms ?? 0) / copyMs).toFixed(2)}×`,
        );
      // ExifTool works in a process of its own: its CPU time is not counted here.
      const cpuText = name.startsWith('ExifTool')
        ? '– | – | –'
        : `${cpu?.toFixed(1)} | ${system?.toFixed(1)} | ${((cpu ?? 0) / copyCpu).toFixed(2)}×`;
      rows.push(
        `| ${size} MB | ${name} | ${ms?.toFixed(1)} | ${((ms ?? 0) / copyMs).toFixed(2)}× | ${cpuText} |`,
      );
    }
  }
  const ioUring = process.env.UV_USE_IO_URING === '0' ? 'off (UV_USE_IO_URING=0)' : 'on (default)';
  console.log(
    `rounds: ${rounds} (ExifTool ${exiftoolRounds}), warm-up ${warmup}, medians; libuv io_uring ${ioUring}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  console.log(
    '| file | method | wall ms | vs copyFile | CPU ms | of it system | CPU vs copyFile |\n|---|---|---|---|---|---|---|',
  );
  for (const row of rows) console.log(row);
  console.log(`\ngoal: stamping at most 1.5× fs.copyFile; ${goal.join('; ')}`);
} finally {
  await exiftool.end();
  rmSync(dir, { recursive: true, force: true });
}
