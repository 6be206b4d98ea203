import { readFileSync } from 'node:fs';
import { stampJpegFile } from './src/stamp-file.ts';
import { template } from '../../bench/stamp/fields.ts';
const input = process.argv[2] as string;
for (const kernelCopy of [true, false]) {
  const r = await stampJpegFile(input, `/dev/shm/s10-${kernelCopy}.jpg`, template, { filename: 'in.jpg', timeLimitMs: 10000, kernelCopy });
  console.log(kernelCopy, r.size, r.warnings.length);
}
console.log(readFileSync('/dev/shm/s10-true.jpg').equals(readFileSync('/dev/shm/s10-false.jpg')));
process.exit(0);
