import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DataDiskState } from './data-disk.ts';

// What an operator watches (README "Observe"): one registry per process, because each process
// (all, web, ingest, worker) is scraped on its own. Counters live here rather than on the
// context so that the few places that count (record an upload, note a delivery try, process an
// upload) need no new argument threaded through every caller.

export const registry = new Registry();
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

export const uploadsReceived = new Counter({
  name: 'photorelay_uploads_received_total',
  help: 'Uploads recorded (acknowledged to the camera), by protocol',
  labelNames: ['protocol'] as const,
  registers: [registry],
});

export const uploadBytesReceived = new Counter({
  name: 'photorelay_upload_bytes_received_total',
  help: 'Bytes of recorded uploads, by protocol',
  labelNames: ['protocol'] as const,
  registers: [registry],
});

export const deliveryTries = new Counter({
  name: 'photorelay_delivery_tries_total',
  help: 'Delivery tries by result (ok, error) and destination (server or project: name and id)',
  labelNames: ['result', 'destination', 'destination_id'] as const,
  registers: [registry],
});

export const processingSeconds = new Histogram({
  name: 'photorelay_processing_seconds',
  help: 'Time to process one upload (metadata, event, scripts)',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

// prom-client's own lag gauge samples with a timer, which misses a long block between samples;
// this histogram sees every delay since the last scrape, the worst one included.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
new Gauge({
  name: 'photorelay_event_loop_delay_max_seconds',
  help: 'Worst event-loop delay since the previous scrape',
  registers: [registry],
  collect() {
    this.set(loopDelay.max / 1e9);
    loopDelay.reset();
  },
});

/** What the queue holds, read from the database when scraped (shared by every worker process). */
export interface QueueFigures {
  jobsWaiting: number;
  jobsRunning: number;
  oldestWaitingSeconds: number;
  uploadsWaiting: number;
}

let readQueue: (() => Promise<QueueFigures>) | null = null;
let lastQueue: QueueFigures | null = null;

/** The composition root hands in how to read the queue (a process with a database). */
export function observeQueue(read: () => Promise<QueueFigures>) {
  readQueue = read;
}

// The four gauges below ask at once in one scrape: one read serves them all.
let pending: { at: number; figures: Promise<QueueFigures | null> } | null = null;
function queueFigures(): Promise<QueueFigures | null> {
  if (pending && Date.now() - pending.at < 1000) return pending.figures;
  pending = { at: Date.now(), figures: readQueueNow() };
  return pending.figures;
}

async function readQueueNow(): Promise<QueueFigures | null> {
  if (!readQueue) return null;
  try {
    lastQueue = await readQueue();
  } catch {
    // The database is away: the gauges keep their last value, photorelay_database_up says why.
    databaseUp.set(0);
    return lastQueue;
  }
  databaseUp.set(1);
  return lastQueue;
}

const databaseUp = new Gauge({
  name: 'photorelay_database_up',
  help: '1 when the last scrape could read the database',
  registers: [registry],
});

const queueGauge = (name: string, help: string, pick: (q: QueueFigures) => number) =>
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const figures = await queueFigures();
      if (figures) this.set(pick(figures));
    },
  });
queueGauge(
  'photorelay_jobs_waiting',
  'Delivery jobs scheduled (new or waiting for a retry)',
  (q) => q.jobsWaiting,
);
queueGauge('photorelay_jobs_running', 'Delivery jobs being sent now', (q) => q.jobsRunning);
queueGauge(
  'photorelay_oldest_waiting_job_age_seconds',
  'Age of the oldest job not yet delivered (scheduled or running)',
  (q) => q.oldestWaitingSeconds,
);
queueGauge('photorelay_uploads_waiting', 'Uploads received and not yet processed', (q) => q.uploadsWaiting);

// Issue 30 item 6: the data disk as the process sees it (read on the watcher's timer, not per scrape).
let readDisk: (() => DataDiskState) | null = null;

/** The composition root hands in the data disk watcher. */
export function observeDataDisk(read: () => DataDiskState) {
  readDisk = read;
}

new Gauge({
  name: 'photorelay_data_disk_free_bytes',
  help: 'Bytes free on the file system of DATA_DIR/files (statfs, as the server process may use them)',
  registers: [registry],
  collect() {
    const free = readDisk?.().freeBytes;
    if (free !== null && free !== undefined) this.set(free);
  },
});
new Gauge({
  name: 'photorelay_data_disk_full',
  help: '1 while the data disk counts as full (free space under DISK_FREE_MIN_MB, or a write failed for lack of space): uploads are refused',
  registers: [registry],
  collect() {
    if (readDisk) this.set(readDisk().full ? 1 : 0);
  },
});

export async function renderMetrics(): Promise<{ contentType: string; text: string }> {
  return { contentType: registry.contentType, text: await registry.metrics() };
}
