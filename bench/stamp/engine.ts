// The engine's work on one head alone (issue 15): parse the metadata of a sample image, apply the
// 25-field template, build the new segments, in memory, in a tight loop after a warm-up. No I/O:
// this is the fixed cost per file that stampJpegFile adds to a copy. `--cpu-prof` of node gives the
// profile of the loop.
// Usage: npx tsx bench/stamp/engine.ts [--image IPTC-PhotometadataRef-Std2025.1.jpg] [--calls 2000] [--warmup 500]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JpegMetadata } from '../../packages/xmp/src/jpeg.ts';
import { rewriteJpeg } from '../../packages/xmp/src/jpeg.ts';
import { stampSegments } from '../../packages/xmp/src/stamp-segments.ts';
import { template } from './fields.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const images = path.resolve(here, '../../../shared/data/images');
const option = (name: string, fallback: string): string => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};
const image = option('image', 'IPTC-PhotometadataRef-Std2025.1.jpg');
const calls = Number(option('calls', '2000'));
const warmup = Number(option('warmup', '500'));

let meta: JpegMetadata | undefined;
await rewriteJpeg([readFileSync(path.join(images, image))], { write: () => undefined }, (found) => {
  meta = found;
  return [];
});
if (!meta) throw new Error('no metadata');
const head = meta;
const run = () => stampSegments(head, template, { filename: 'in.jpg' });
for (let i = 0; i < warmup; i++) run();
const cpu = process.cpuUsage();
const started = performance.now();
for (let i = 0; i < calls; i++) run();
const wall = (performance.now() - started) / calls;
const used = process.cpuUsage(cpu);
console.log(
  `${image}: ${calls} calls, wall ${wall.toFixed(3)} ms, CPU ${((used.user + used.system) / 1000 / calls).toFixed(3)} ms per head (all threads); load ${loadavg()[0]?.toFixed(1)}`,
);
