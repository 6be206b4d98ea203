// Same-run A/B of two builds of the engine (issue 15, session 11): the sources of this checkout
// against another copy of packages/xmp/src (e.g. main's: `git archive main packages/xmp/src | tar
// -x -C /tmp/main`), both loaded into one process and alternated, so load from other processes
// hits both alike. Two rows: the engine alone on one sample head (in memory, warm), and the whole
// file on a stamp thread (each build starts its own threads) beside fs.copyFile, and the head only
// (stampJpegHead, as the server's stampBlob calls it, on a stamp thread). CPU medians.
// Usage: npx tsx bench/stamp/ab.ts --base /tmp/main/packages/xmp/src [--mb 5] [--rounds 101]
//   [--image IPTC-PhotometadataRef-Std2025.1.jpg] [--calls 200]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { stampJpegFile } from '../../packages/xmp/src/stamp-file.ts';
import type { stampJpegHead } from '../../packages/xmp/src/stamp-head.ts';
import type { stampSegments } from '../../packages/xmp/src/stamp-segments.ts';
import { cpuInTurns, images, jpegMetadataOf, median, option, textOption } from './common.ts';
import { template } from './fields.ts';
import { makeFrame, metadataHead, standardTables, writeSyntheticJpeg } from './synthetic-jpeg.ts';

const base = textOption('base', '');
if (!base) throw new Error('--base <another copy of packages/xmp/src> is needed');
const mb = option('mb', 5);
const rounds = option('rounds', 101);
const calls = option('calls', 200);
const image = textOption('image', 'IPTC-PhotometadataRef-Std2025.1.jpg');

interface Build {
  stampSegments: typeof stampSegments;
  stampJpegFile: typeof stampJpegFile;
  stampJpegHead: typeof stampJpegHead;
}
const load = async (dir: string): Promise<Build> => ({
  ...(await import(pathToFileURL(path.join(dir, 'stamp-segments.ts')).href)),
  ...(await import(pathToFileURL(path.join(dir, 'stamp-file.ts')).href)),
  ...(await import(pathToFileURL(path.join(dir, 'stamp-head.ts')).href)),
});
const builds = {
  base: await load(path.resolve(base)),
  this: await load(path.resolve(import.meta.dirname, '../../packages/xmp/src')),
};

/** Runs each method `rounds` times, in alternating order, after a warm-up; CPU ms medians. */
async function alternate(
  methods: Record<string, () => unknown>,
  warmup: number,
): Promise<Record<string, number>> {
  const times = await cpuInTurns(methods, warmup, rounds);
  return Object.fromEntries(Object.entries(times).map(([name, { cpu }]) => [name, median(cpu)]));
}

const head = await jpegMetadataOf(readFileSync(path.join(images, image)));
const engine = (build: Build) => () => {
  for (let i = 0; i < calls; i++) build.stampSegments(head, template, { filename: 'in.jpg' });
};
const inMemory = await alternate({ base: engine(builds.base), this: engine(builds.this) }, 3);
const perCall = (name: 'base' | 'this') => (inMemory[name] ?? Number.NaN) / calls;
console.log(
  `engine on ${image}: base ${perCall('base').toFixed(3)} ms, this ${perCall('this').toFixed(3)} ms, this/base ${(perCall('this') / perCall('base')).toFixed(3)}`,
);

const dir = mkdtempSync(path.join('/dev/shm', 'photorelay-bench-ab-'));
try {
  const frame = makeFrame(standardTables(readFileSync(path.join(images, 'exiv2-FurnaceCreekInn.jpg'))));
  const file = path.join(dir, 'in.jpg');
  const out = path.join(dir, 'out.jpg');
  await writeSyntheticJpeg(
    file,
    metadataHead(readFileSync(path.join(images, image))),
    frame,
    mb * 1024 * 1024,
  );
  const onThread = (build: Build) => () =>
    build.stampJpegFile(file, out, template, { filename: 'in.jpg', timeLimitMs: 10_000 });
  const whole = await alternate(
    { copyFile: () => copyFile(file, out), base: onThread(builds.base), this: onThread(builds.this) },
    200,
  );
  const copy = whole.copyFile ?? Number.NaN;
  const row = (name: 'base' | 'this') =>
    `${whole[name]?.toFixed(2)} ms (${((whole[name] ?? 0) / copy).toFixed(2)}x)`;
  console.log(
    `${mb} MB on a stamp thread: copyFile ${copy.toFixed(2)} ms, base ${row('base')}, this ${row('this')}, this/base ${((whole.this ?? 0) / (whole.base ?? 1)).toFixed(3)}; load ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
  const headOnThread = (build: Build) => () =>
    build.stampJpegHead(file, template, { filename: 'in.jpg', timeLimitMs: 10_000 });
  const heads = await alternate({ base: headOnThread(builds.base), this: headOnThread(builds.this) }, 200);
  console.log(
    `${mb} MB, stampJpegHead on a stamp thread: base ${heads.base?.toFixed(2)} ms, this ${heads.this?.toFixed(2)} ms, this/base ${((heads.this ?? 0) / (heads.base ?? 1)).toFixed(3)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
