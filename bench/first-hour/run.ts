// A fresh install's first busy hour (issue 29, 2): a new DATA_DIR on the embedded database, a
// project with two FTP destinations, a few uploads, the database's first maintenance (a minute
// after start: statistics of nearly empty tables), then a burst of small pictures from many
// cameras. The baseline, in the same run on the same server: the same burst again ("warm", the
// tables full and their plans made for it). See ../README.md.
//
//   npx tsx bench/first-hour/run.ts [--cameras 16] [--per-camera 75] [--timeout-s 300]
import { parseArgs } from 'node:util';
import {
  type BurstFigures,
  burst,
  fewUploadsThenFirstMaintenance,
  freshInstall,
} from '../../packages/server/test/support/first-busy-hour.ts';

const { values: opts } = parseArgs({
  options: {
    cameras: { type: 'string', default: '16' },
    'per-camera': { type: 'string', default: '75' },
    /** How long to wait for the deliveries after the last acknowledgement. */
    'timeout-s': { type: 'string', default: '300' },
  },
});
const cameras = Number(opts.cameras);
const perCamera = Number(opts['per-camera']);
const deliveryTimeoutMs = Number(opts['timeout-s']) * 1000;

const seconds = (ms: number) => (Number.isNaN(ms) ? 'not all' : `${(ms / 1000).toFixed(1)} s`);
const row = (label: string, f: BurstFigures) => {
  const waited = Number.isNaN(f.lastAckToDeliveredMs) ? deliveryTimeoutMs : f.lastAckToDeliveredMs;
  return (
    `| ${label} | ${f.pictures} | ${seconds(f.uploadMs)} | ${seconds(f.slowestUploadMs)} | ` +
    `${f.delivered} / ${2 * f.pictures} | ${seconds(f.lastAckToDeliveredMs)} | ` +
    `${(f.delivered / ((f.uploadMs + waited) / 1000)).toFixed(1)} |`
  );
};

const setup = await freshInstall();
try {
  console.log('fresh install; a few uploads, then waiting for the first maintenance (~70 s) …');
  await fewUploadsThenFirstMaintenance(setup);
  const header = [
    '| run | pictures | uploads took | slowest upload | delivered | last ack → last delivery | deliveries/s overall |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ].join('\n');
  const runs: Array<[string, string]> = [
    ['COLD', 'first busy hour (after the first maintenance)'],
    ['WARM', 'warm (the same burst again)'],
  ];
  const rows: string[] = [];
  for (const [prefix, label] of runs) {
    console.log(`${label}: ${cameras} cameras × ${perCamera} pictures …`);
    try {
      rows.push(row(label, await burst(setup, { prefix, cameras, perCamera, deliveryTimeoutMs })));
    } catch (error) {
      // A camera cut off (an upload that took minutes) ends this run, not the figures so far.
      rows.push(`| ${label} | ${cameras * perCamera} | failed: ${(error as Error).message} | | | | |`);
    }
    console.log(`${header}\n${rows.join('\n')}\n`);
  }
} finally {
  await setup.close();
}
