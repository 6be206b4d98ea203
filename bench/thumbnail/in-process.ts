// The baseline: a thumbnail made the way the server made it before issue 25, in the process that
// asks (sharp with its default cache, one at a time). Run as its own process by run.ts so its
// peak memory (VmHWM) is the decode's alone; prints one JSON line.
import fs from 'node:fs';
import sharp from 'sharp';

const [file, edge, quality] = [process.argv[2] ?? '', Number(process.argv[3]), Number(process.argv[4])];
const status = (field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]) *
  1024;

sharp.concurrency(1);
// Load sharp's native code first: the idle figure counts it, as the server's own RSS does.
await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
  .jpeg()
  .toBuffer();
const idle = status('VmRSS');
const started = performance.now();
const bytes = await sharp(file, { failOn: 'none', limitInputPixels: 200_000_000 })
  .rotate()
  .resize(edge, edge, { fit: 'inside', withoutEnlargement: true })
  .jpeg({ quality })
  .toBuffer();
const ms = performance.now() - started;
console.log(JSON.stringify({ idle, peak: status('VmHWM'), after: status('VmRSS'), ms, bytes: bytes.length }));
