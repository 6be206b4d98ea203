// Stamping benchmark: 200 JPEGs of 0.5 to 20 MB, a 25-field template. Measures
//   - a plain stream copy of the same bytes (the floor: read + write, nothing else),
//   - stampJpeg (streaming, as the pipeline calls it: file read stream -> file write stream),
//   - ExifTool writing the same fields (exiftool-vendored, one long-running process) on a
//     subset spread over the size range; stampJpeg is timed on that same subset for the ratio.
// Usage: npx tsx bench/stamp/run.ts [--files 200] [--exiftool-files 40] [--rounds 3] [--dir DIR] [--verify] [--keep]
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { stampJpeg } from '@photorelay/xmp/index';
import { ExifTool, type WriteTags } from 'exiftool-vendored';
import { images, median, option } from './common.ts';
import { exiftoolTags, template } from './fields.ts';
import { makeFrame, metadataHead, standardTables, writeSyntheticJpeg } from './synthetic-jpeg.ts';

const fileCount = option('files', 200);
const exiftoolCount = Math.min(fileCount, option('exiftool-files', 40));
const rounds = option('rounds', 3);
const verify = process.argv.includes('--verify');
// Working files go to memory (tmpfs) when there is one, so disk write-back does not add noise
// to what is compared; --dir puts them elsewhere (e.g. on the data disk of a server).
const dirIndex = process.argv.indexOf('--dir');
const baseDir =
  dirIndex >= 0 ? (process.argv[dirIndex + 1] ?? tmpdir()) : existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const keep = process.argv.includes('--keep');

const MB = 1024 * 1024;
const rssMb = (): number => process.memoryUsage().rss / MB;

// Heads of real files: rich IPTC/XMP (33 KB packet), Photoshop IRB with thumbnail, camera EXIF.
const headSources = [
  'IPTC-PhotometadataRef-Std2025.1.jpg',
  'exifr-iptc-staff-photographer-example.jpg',
  'exiv2-Reagan.jpg',
  'exiftool-XMP.jpg',
  'exiv2-FurnaceCreekInn.jpg',
  'exiftool-IPTC.jpg',
];

interface FileTiming {
  file: string;
  bytes: number;
  ms: number;
}

interface Summary {
  files: number;
  mb: number;
  seconds: number;
  filesPerSecond: number;
  mbPerSecond: number;
  msPerFile: number;
}

function summary(timings: FileTiming[]): Summary {
  const seconds = timings.reduce((sum, timing) => sum + timing.ms, 0) / 1000;
  const mb = timings.reduce((sum, timing) => sum + timing.bytes, 0) / MB;
  return {
    files: timings.length,
    mb,
    seconds,
    filesPerSecond: timings.length / seconds,
    mbPerSecond: mb / seconds,
    msPerFile: (seconds * 1000) / timings.length,
  };
}

const buckets: Array<[string, number, number]> = [
  ['0.5-2 MB', 0, 2 * MB],
  ['2-8 MB', 2 * MB, 8 * MB],
  ['8-20 MB', 8 * MB, Number.POSITIVE_INFINITY],
  ['all', 0, Number.POSITIVE_INFINITY],
];

const inBucket =
  (low: number, high: number) =>
  (timing: FileTiming): boolean =>
    timing.bytes >= low && timing.bytes < high;

function table(rows: Array<[string, FileTiming[]]>): void {
  console.log(
    `  ${'size'.padEnd(9)} ${'method'.padEnd(26)} ${'files'.padStart(5)} ${'MB'.padStart(6)} ${'files/s'.padStart(8)} ${'MB/s'.padStart(6)} ${'ms/file'.padStart(8)}`,
  );
  for (const [label, low, high] of buckets) {
    for (const [method, timings] of rows) {
      const selected = timings.filter(inBucket(low, high));
      if (selected.length === 0) continue;
      const s = summary(selected);
      console.log(
        `  ${label.padEnd(9)} ${method.padEnd(26)} ${String(s.files).padStart(5)} ${s.mb.toFixed(0).padStart(6)} ${s.filesPerSecond.toFixed(1).padStart(8)} ${s.mbPerSecond.toFixed(0).padStart(6)} ${s.msPerFile.toFixed(2).padStart(8)}`,
      );
    }
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(baseDir, 'photorelay-bench-stamp-'));
  const exiftool = new ExifTool({ maxProcs: 1 });
  try {
    // --- generate
    const generated = process.hrtime.bigint();
    const frame = makeFrame(standardTables(readFileSync(path.join(images, 'exiv2-FurnaceCreekInn.jpg'))));
    const heads = headSources.map((name) => metadataHead(readFileSync(path.join(images, name))));
    const files: string[] = [];
    let total = 0;
    for (let i = 0; i < fileCount; i++) {
      // Sizes spread evenly on a log scale from 0.5 to 20 MB (deterministic).
      const target = 0.5 * MB * 40 ** (fileCount === 1 ? 1 : i / (fileCount - 1));
      const file = path.join(dir, `file-${String(i).padStart(4, '0')}.jpg`);
      total += await writeSyntheticJpeg(file, heads[i % heads.length] ?? [], frame, target);
      files.push(file);
    }
    const generateSeconds = Number(process.hrtime.bigint() - generated) / 1e9;
    const first = statSync(files[0] ?? '').size / MB;
    const last = statSync(files[files.length - 1] ?? '').size / MB;
    console.log(
      `generated ${files.length} JPEGs, ${(total / MB).toFixed(0)} MB (${first.toFixed(2)} to ${last.toFixed(2)} MB) in ${generateSeconds.toFixed(1)} s in ${dir}`,
    );

    if (verify) {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
      const page = await browser.newPage();
      for (const file of [files[0], files[files.length - 1]]) {
        await page.goto(`file://${file}`);
        const size = await page.evaluate(async () => {
          const image = document.images[0];
          await image?.decode();
          return `${image?.naturalWidth}x${image?.naturalHeight}`;
        });
        console.log(`chromium decodes ${path.basename(file ?? '')}: ${size}`);
      }
      await browser.close();
    }

    const out = path.join(dir, 'out.jpg');
    let warnings = 0;
    const small = { highWaterMark: 64 * 1024 }; // createReadStream's default
    const large = { highWaterMark: MB };
    const methods: Record<string, (file: string) => Promise<unknown>> = {
      'plain copy': (file) => pipeline(createReadStream(file, small), createWriteStream(out)),
      stampJpeg: async (file) => {
        const result = await stampJpeg(createReadStream(file, small), createWriteStream(out), template, {
          filename: path.basename(file),
        });
        warnings += result.warnings.length;
      },
      'plain copy, 1 MiB buffers': (file) =>
        pipeline(createReadStream(file, large), createWriteStream(out, large)),
      'stampJpeg, 1 MiB buffers': (file) =>
        stampJpeg(createReadStream(file, large), createWriteStream(out, large), template, {
          filename: path.basename(file),
        }),
      'ExifTool write': async (file) => {
        rmSync(out, { force: true });
        await exiftool.write(file, exiftoolTags as WriteTags, { writeArgs: ['-o', out] });
      },
    };
    const step = files.length / exiftoolCount;
    const subset = new Set(
      Array.from({ length: exiftoolCount }, (_, i) => files[Math.floor(i * step)] ?? ''),
    );

    // Warm-up, not measured: page cache, the JIT of both code paths (a server stamps all day
    // with warm code), the ExifTool process and the Perl modules it writes with.
    for (const file of files) {
      for (const [name, run] of Object.entries(methods))
        if (name !== 'ExifTool write' || subset.has(file)) await run(file);
    }
    warnings = 0;

    // Rounds, methods interleaved file by file so that load from other processes on the
    // machine hits all of them alike; per file and method the median of the rounds counts.
    const samples = new Map<string, Map<string, number[]>>();
    const rss: Array<{ bytes: number; rss: number }> = [];
    for (let round = 0; round < rounds; round++) {
      for (const file of files) {
        for (const [name, run] of Object.entries(methods)) {
          if (name === 'ExifTool write' && !subset.has(file)) continue;
          const started = process.hrtime.bigint();
          await run(file);
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const byFile = samples.get(name) ?? new Map<string, number[]>();
          byFile.set(file, [...(byFile.get(file) ?? []), ms]);
          samples.set(name, byFile);
          if (name === 'stampJpeg') rss.push({ bytes: statSync(file).size, rss: rssMb() });
        }
      }
    }
    const timings = (name: string): FileTiming[] =>
      [...(samples.get(name) ?? new Map<string, number[]>())].map(([file, ms]) => ({
        file,
        bytes: statSync(file).size,
        ms: median(ms),
      }));
    const only = (list: FileTiming[]): FileTiming[] => list.filter((timing) => subset.has(timing.file));

    console.log(
      `\nall ${files.length} files, median of ${rounds} rounds per file (stream buffers: 64 KiB read, 16 KiB write unless noted):`,
    );
    table(
      Object.keys(methods)
        .filter((name) => name !== 'ExifTool write')
        .map((name) => [name, timings(name)]),
    );
    console.log(
      `\nExifTool subset: ${subset.size} files spread over the sizes, the other methods on the same files:`,
    );
    table([
      ['ExifTool write', timings('ExifTool write')],
      ['stampJpeg', only(timings('stampJpeg'))],
      ['stampJpeg, 1 MiB buffers', only(timings('stampJpeg, 1 MiB buffers'))],
    ]);

    const seconds = (name: string, subsetOnly = false): number =>
      summary(subsetOnly ? only(timings(name)) : timings(name)).seconds;
    console.log('\nratios:');
    console.log(
      `  stampJpeg time / plain copy time: ${(seconds('stampJpeg') / seconds('plain copy')).toFixed(2)} (1 MiB buffers: ${(seconds('stampJpeg, 1 MiB buffers') / seconds('plain copy, 1 MiB buffers')).toFixed(2)})`,
    );
    for (const [label, low, high] of buckets) {
      const exif = summary(timings('ExifTool write').filter(inBucket(low, high))).seconds;
      const ours = summary(only(timings('stampJpeg')).filter(inBucket(low, high))).seconds;
      const oursLarge = summary(
        only(timings('stampJpeg, 1 MiB buffers')).filter(inBucket(low, high)),
      ).seconds;
      console.log(
        `  throughput vs ExifTool, ${label.padEnd(8)}: ${(exif / ours).toFixed(1)}x (1 MiB buffers: ${(exif / oursLarge).toFixed(1)}x)`,
      );
    }
    const rssOf = (low: number, high: number): number =>
      Math.max(...rss.filter((entry) => entry.bytes >= low && entry.bytes < high).map((entry) => entry.rss));
    console.log('memory:');
    console.log(
      `  RSS after stamping: files < 2 MB max ${rssOf(0, 2 * MB).toFixed(0)} MB, files > 10 MB max ${rssOf(10 * MB, Number.POSITIVE_INFINITY).toFixed(0)} MB`,
    );
    console.log(
      `  peak RSS of this process (generation, all methods, ExifTool client): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
    console.log(
      `  stamp warnings per round: ${warnings / rounds} (IIM length limits, variables without a value in the picture)`,
    );
  } finally {
    await exiftool.end();
    if (keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
