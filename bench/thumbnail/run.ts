// Issue 25: the memory of a thumbnail of a 50 MP camera file (goal < 150 MB), made in the picture
// scaler's process (adapters/pictures), beside the baseline of decoding in the asking process as
// the server did before, measured in the same run.
//   npx tsx bench/thumbnail/run.ts [--runs 3]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createPictureScaler } from '../../packages/server/src/adapters/pictures/picture-scaler.ts';
import { decodeBomb } from '../../packages/server/test/support/pictures.ts';
import { buildServer, serverDist } from '../../scripts/build-server.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(0);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-thumbnail-'));
// The scaler process as the server runs it: the bundle's script with plain node (not tsx).
await buildServer({ onlyIfStale: true });
const processFile = path.join(serverDist, 'picture-scaler-process.mjs');

const status = (pid: number | string, field: string) =>
  Number(
    new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1],
  ) * 1024;

/** A 50 MP camera-like JPEG (8660 × 5774, noise, 4:2:0, quality 90): about what a 50 MP body writes. */
async function cameraFile(progressive: boolean): Promise<string> {
  const file = path.join(dir, progressive ? 'camera-50mp-progressive.jpg' : 'camera-50mp.jpg');
  await sharp({
    create: {
      width: 8660,
      height: 5774,
      channels: 3,
      background: '#6a7f99',
      noise: { type: 'gaussian', mean: 110, sigma: 40 },
    },
    limitInputPixels: false,
  })
    .jpeg({ quality: 90, progressive, chromaSubsampling: '4:2:0' })
    .toFile(file);
  return file;
}

interface Figure {
  /** Peak resident memory above the process's idle memory (bytes). */
  growth: number;
  /** Peak resident memory of the whole process (bytes). */
  peak: number;
  ms: number;
}

function inProcess(file: string, edge: number, quality: number): Figure {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'in-process.ts'), file, String(edge), String(quality)],
    { encoding: 'utf8' },
  );
  const figures = JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
  return { growth: figures.peak - figures.idle, peak: figures.peak, ms: figures.ms };
}

async function inScaler(file: string, edge: number, quality: number): Promise<Figure & { server: number }> {
  // A fresh scaler per run: its VmHWM is this picture's alone.
  const scaler = createPictureScaler({
    timeMs: 120_000,
    memoryBytes: 768 * MB,
    decodeBytes: 512 * MB,
    processFile,
  });
  const tiny = path.join(dir, 'tiny.jpg');
  await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
    .jpeg()
    .toFile(tiny);
  await scaler.scale(tiny, { edge, quality });
  const pid = scaler.pid ?? 0;
  const idle = status(pid, 'VmRSS');
  const serverBefore = status('self', 'VmRSS');
  const started = performance.now();
  await scaler.scale(file, { edge, quality }).catch(() => null);
  const ms = performance.now() - started;
  const peak = status(pid, 'VmHWM');
  const server = status('self', 'VmRSS') - serverBefore;
  await scaler.close();
  return { growth: peak - idle, peak, ms, server };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

console.log(`load ${os.loadavg()[0]?.toFixed(1)}, ${runs} runs each, median`);
console.log(
  '| file | size | in process (before): peak growth / process peak / ms | scaler process: peak growth / process peak / ms | asking process growth |',
);
console.log('| --- | --- | --- | --- | --- |');
const bomb = path.join(dir, 'bomb.jpg');
fs.writeFileSync(bomb, await decodeBomb());
const files: [string, string][] = [];
for (const progressive of [false, true]) {
  const file = await cameraFile(progressive);
  files.push([`50 MP ${progressive ? 'progressive' : 'baseline'} (${mb(fs.statSync(file).size)} MB)`, file]);
}
files.push([`decode bomb (${fs.statSync(bomb).size} bytes; refused by the scaler)`, bomb]);
for (const [name, file] of files) {
  for (const [size, edge, quality] of [
    ['small 160', 160, 70],
    ['large 960', 960, 80],
  ] as const) {
    if (file === bomb && size !== 'small 160') continue;
    const before: Figure[] = [];
    const after: (Figure & { server: number })[] = [];
    for (let i = 0; i < (file === bomb ? 1 : runs); i++) {
      before.push(inProcess(file, edge, quality));
      after.push(await inScaler(file, edge, quality));
    }
    const pick = (figures: Figure[]) =>
      `${mb(median(figures.map((f) => f.growth)))} MB / ${mb(median(figures.map((f) => f.peak)))} MB / ${median(figures.map((f) => f.ms)).toFixed(0)}`;
    console.log(
      `| ${name} | ${size} | ${pick(before)} | ${pick(after)} | ${mb(median(after.map((f) => f.server)))} MB |`,
    );
  }
}
fs.rmSync(dir, { recursive: true, force: true });
