// The engine's work on one head alone (issue 15): parse the metadata of a sample image, apply the
// 25-field template, build the new segments, in memory, in a tight loop after a warm-up. No I/O:
// this is the fixed cost per file that stampJpegFile adds to a copy. `--cpu-prof` of node gives the
// profile of the loop.
// Usage: npx tsx bench/stamp/engine.ts [--image IPTC-PhotometadataRef-Std2025.1.jpg] [--calls 2000] [--warmup 500]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { stampSegments } from '../../packages/xmp/src/stamp-segments.ts';
import { images, jpegMetadataOf, option, textOption } from './common.ts';
import { template } from './fields.ts';

const image = textOption('image', 'IPTC-PhotometadataRef-Std2025.1.jpg');
const calls = option('calls', 2000);
const warmup = option('warmup', 500);

const head = await jpegMetadataOf(readFileSync(path.join(images, image)));
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
