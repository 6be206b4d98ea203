import { randomUUID } from 'node:crypto';
import { isTransientConnectionError } from '../adapters/destinations/destination.ts';
import { DestinationPool } from '../adapters/destinations/pool.ts';
import { purgeFinishedCommands } from '../commands/service.ts';
import type { AppContext } from '../context.ts';
import { purgeExpiredTestImages } from '../modules/metadata/test-image.ts';
import { settleUpload } from '../modules/scripts/settle.ts';
import { deliveryTries, processingSeconds } from '../observe/metrics.ts';
import { deliverToProject, deliverToServer, PermanentDeliveryError } from './delivery.ts';
import { notifyJobGaveUp } from './failure-notice.ts';
import { sweepOrphanFiles } from './orphan-sweep.ts';
import { type ProcessingStep, ProcessingStopped, processUpload, type UploadToProcess } from './processing.ts';
import * as q from './queue.ts';
import { purgeExpiredUploads } from './retention.ts';
import { postponeUpload, StorageFullError } from './storage-full.ts';

/** About 15 s, 1 min, 5 min, 15 min, then hourly; a job fails for good after 10 tries. */
export const retryDelaysSeconds = [15, 60, 300, 900];
export const maxTries = 10;
const testImagePurgeMs = 60_000;
export const retryDelay = (tryNumber: number) => retryDelaysSeconds[tryNumber - 1] ?? 3600;

export interface WorkerOptions {
  /** Run once per upload before its deliveries, in this order (runtime.ts lists them). */
  steps: readonly ProcessingStep[];
  /** Deliveries at once. */
  concurrency: number;
  /** Uploads processed at once (default `concurrency`). */
  processConcurrency?: number;
  leaseSeconds: number;
  retentionDays: number;
  /** Files no row refers to are removed (at start, then daily) once this old (default an hour). */
  orphanFileAgeSeconds?: number;
  /** How long an upload waits when a step found the disk full, before it is processed again (default 30). */
  storageFullRetrySeconds?: number;
  /** How often it looks for work without a wake-up (retries that became due, leases that ran out). */
  pollMs?: number;
  /** How often expired test images are removed (default a minute). */
  testImagePurgeMs?: number;
}

/**
 * The pipeline worker: processes new uploads (once each) and delivers due jobs. Any number of
 * these may run against one database: uploads and jobs are leased with SKIP LOCKED, a lease is
 * extended while the work runs, and work whose worker died is taken again when its lease ends.
 */
export function startPipelineWorker(ctx: AppContext, options: WorkerOptions) {
  const workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const storageFullRetrySeconds = options.storageFullRetrySeconds ?? 30;
  const pool = new DestinationPool();
  let stopped = false;
  const inFlight = new Set<Promise<unknown>>();

  const track = <T>(p: Promise<T>) => {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => {});
    return p;
  };

  // Whether a claim may find work. Wake-ups and the timer set them; a claim that finds nothing
  // clears its flag unless a wake-up came meanwhile, so idle slots do not poll the database.
  const maybe = { uploads: true, jobs: true };
  let wakeups = 0;
  const expectWork = () => {
    wakeups++;
    maybe.uploads = true;
    maybe.jobs = true;
  };

  // Uploads in processing here, per team: a team gets at most half the processing slots, so
  // another team's picture finds one free however many a burst brought (issue 25).
  const processingByTeam = new Map<number, number>();
  const processShare = Math.max(1, Math.ceil((options.processConcurrency ?? options.concurrency) / 2));

  async function processOne(): Promise<boolean> {
    if (!maybe.uploads) return false;
    const seen = wakeups;
    const busyTeams = [...processingByTeam].filter(([, n]) => n >= processShare).map(([team]) => team);
    const upload = await q.claimUploadToProcess(ctx.db, options.leaseSeconds, busyTeams);
    if (!upload) {
      if (seen === wakeups) maybe.uploads = false;
      return false;
    }
    // As with jobs (deliverOne): none else waiting, no claim until a wake-up.
    if (!upload.moreWaiting && seen === wakeups) maybe.uploads = false;
    processingByTeam.set(upload.teamId, (processingByTeam.get(upload.teamId) ?? 0) + 1);
    try {
      await processClaimed(upload);
    } finally {
      const left = (processingByTeam.get(upload.teamId) ?? 1) - 1;
      if (left > 0) processingByTeam.set(upload.teamId, left);
      else processingByTeam.delete(upload.teamId);
      // Its team may have a slot again: an upload the claim passed over may be next.
      if (upload.moreWaiting) {
        wakeups++;
        maybe.uploads = true;
      }
    }
    return true;
  }

  async function processClaimed(upload: UploadToProcess) {
    // A large or hostile file may take longer than the lease: keep it, or another worker starts over.
    const heartbeat = setInterval(
      () => {
        q.extendUploadLease(ctx.db, upload.id, options.leaseSeconds).catch(() => {});
      },
      (options.leaseSeconds * 1000) / 3,
    );
    const endTimer = processingSeconds.startTimer();
    const result = await processUpload(ctx, options.steps, upload)
      .catch((error: unknown) => {
        if (error instanceof ProcessingStopped || error instanceof StorageFullError) return error;
        throw error;
      })
      .finally(() => {
        clearInterval(heartbeat);
        endTimer();
      });
    if (result instanceof StorageFullError) {
      // Nothing goes out unstamped because the disk is full: processed again once its lease ends.
      // Readiness and the dashboard say so, and the ingest refuses uploads meanwhile (issue 30).
      ctx.disk.noteWriteFailed();
      ctx.log.warn(
        { upload: upload.id, step: result.step, err: result.cause, retryInSeconds: storageFullRetrySeconds },
        'no space left on the data folder: the upload waits',
      );
      await postponeUpload(ctx.db, upload.id, storageFullRetrySeconds);
      return true;
    }
    await settleUpload(ctx.db, upload.id, result);
    // The upload's jobs may run now; counted as a wake-up, so that a job claim that started
    // before they existed (and found nothing) cannot clear the flag after this.
    wakeups++;
    maybe.jobs = true;
    pump(lanes.deliver);
  }

  async function deliverOne(): Promise<boolean> {
    if (!maybe.jobs) return false;
    const seen = wakeups;
    const job = await q.claimJob(ctx.db, workerId, options.leaseSeconds);
    if (!job) {
      if (seen === wakeups) maybe.jobs = false;
      return false;
    }
    // Nothing else due: the next claim waits for a wake-up (a processed upload, a retry, the poll
    // timer) instead of every lane ending with a claim that finds nothing, which cost about as
    // much as one that finds a job (bench/README.md "Lean").
    if (!job.moreDue && seen === wakeups) maybe.jobs = false;
    const started = Date.now();
    let tryStarted = started;
    const heartbeat = setInterval(
      () => {
        q.extendLease(ctx.db, job.id, workerId, options.leaseSeconds).catch(() => {});
      },
      (options.leaseSeconds * 1000) / 3,
    );
    try {
      if (job.destProjectId !== null) {
        await deliverToProject(ctx, job, workerId, started);
        countTry(job, 'ok');
      } else {
        let sent: Awaited<ReturnType<typeof deliverToServer>>;
        try {
          sent = await deliverToServer(ctx, pool, job);
        } catch (error) {
          if (!isTransientConnectionError(error)) throw error;
          // The connection broke under the transfer: once more at once, on a new connection.
          await noteTry(job, tryStarted, error);
          tryStarted = Date.now();
          sent = await deliverToServer(ctx, pool, job, { fresh: true });
        }
        await q.markJobSucceeded(ctx.db, job, workerId, Date.now() - started, sent, {
          startedAt: new Date(tryStarted),
          durationMs: Date.now() - tryStarted,
          bytes: sent.bytes,
          error: null,
        });
        countTry(job, 'ok');
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logFailedTry(job, message);
      const tryNumber = job.tryNumber + 1;
      const gaveUp = error instanceof PermanentDeliveryError || tryNumber >= maxTries;
      await q.markJobFailedTry(
        ctx.db,
        job.id,
        workerId,
        {
          state: gaveUp ? 'failed' : 'scheduled',
          trynumber: tryNumber,
          errortext: message.slice(0, 2000),
          retryInSeconds: gaveUp ? 0 : retryDelay(tryNumber),
        },
        { startedAt: new Date(tryStarted), durationMs: Date.now() - tryStarted, bytes: null, error: message },
      );
      // A destination that is gone gets no mail: whoever removed it knows (its jobs say why).
      if (gaveUp && !(error instanceof PermanentDeliveryError)) await notifyJobGaveUp(ctx, job, message);
    } finally {
      clearInterval(heartbeat);
      // Its server has a free connection again, and its project one running job less: a job
      // that claimJob passed over just now may be next (none was when none else was due).
      if (job.moreDue) {
        wakeups++;
        maybe.jobs = true;
      }
    }
    return true;
  }

  /** Every try, by result and destination, for the metrics (observe/metrics.ts). */
  function countTry(job: q.ClaimedJob, result: 'ok' | 'error') {
    deliveryTries.inc({
      result,
      // Names repeat across teams: the id tells them apart, the name tells a person which it is.
      destination: job.ftpServerName ?? job.destProjectName ?? '',
      destination_id: job.ftpServerId !== null ? `server:${job.ftpServerId}` : `project:${job.destProjectId}`,
    });
  }

  function logFailedTry(job: q.ClaimedJob, message: string) {
    countTry(job, 'error');
    ctx.log.warn(
      {
        job: job.id,
        upload: job.uploadId,
        destination: job.ftpServerName ?? job.destProjectName,
        error: message,
      },
      'delivery try failed',
    );
  }

  /** A failed try that changes nothing else into the job's history (it is logged too); never throws. */
  async function noteTry(job: q.ClaimedJob, startedAt: number, error: unknown) {
    const message = error instanceof Error ? error.message : String(error);
    logFailedTry(job, message);
    await q
      .recordTry(ctx.db, job.id, {
        startedAt: new Date(startedAt),
        durationMs: Date.now() - startedAt,
        bytes: null,
        error: message,
      })
      .catch((err) => ctx.log.error({ err, job: job.id }, 'could not note a try'));
  }

  // Two lanes of slots: processing and deliveries. With one lane that tried processing first,
  // a stream of arriving uploads kept every slot processing while finished files waited for
  // their deliveries (issue 15: the last file reached its servers seconds after the last upload).
  const lanes = {
    process: {
      active: 0,
      limit: options.processConcurrency ?? options.concurrency,
      work: processOne,
    },
    deliver: { active: 0, limit: options.concurrency, work: deliverOne },
  };
  // A slot pulls work until there is none; one that finds work starts a sibling, up to the limit.
  const pump = (lane: (typeof lanes)[keyof typeof lanes]) => {
    if (stopped || lane.active >= lane.limit) return;
    lane.active++;
    track(
      (async () => {
        try {
          let first = true;
          while (!stopped && (await lane.work())) {
            if (first) pump(lane);
            first = false;
          }
        } catch (error) {
          ctx.log.error({ err: error }, 'pipeline worker failed');
        } finally {
          lane.active--;
        }
      })(),
    );
  };
  const pumpAll = () => {
    pump(lanes.process);
    pump(lanes.deliver);
  };

  // One purge at a time: a caller that arrives while one runs waits for that one to finish.
  let purging: Promise<void> | null = null;
  function purgeExpired() {
    purging ??= purgeExpiredNow().finally(() => {
      purging = null;
    });
    return purging;
  }

  async function purgeExpiredNow() {
    await purgeExpiredTestImages(ctx, { all: true });
    await purgeFinishedCommands(ctx);
    await purgeExpiredUploads(ctx, options.retentionDays);
  }

  // New work arrives through wake(); the timer finds retries that became due and expired leases.
  const wake = (what?: 'uploads') => {
    if (what === 'uploads') {
      // A new upload's jobs are due only once it is processed (processClaimed pumps then): no
      // delivery claim that could only find nothing (bench/README.md "Lean").
      wakeups++;
      maybe.uploads = true;
      pump(lanes.process);
      return;
    }
    expectWork();
    pumpAll();
  };
  const timer = setInterval(() => wake(), options.pollMs ?? 1000);
  const retention = setInterval(
    () => void purgeExpired().catch((err) => ctx.log.error({ err }, 'retention failed')),
    3600_000,
  );
  // Test images live an hour and count against the team's quota: gone within a minute of expiry.
  const testImages = setInterval(
    () =>
      void purgeExpiredTestImages(ctx, { all: true }).catch((err) =>
        ctx.log.error({ err }, 'test image purge failed'),
      ),
    options.testImagePurgeMs ?? testImagePurgeMs,
  );
  // What a crash left on disk: at start, then daily.
  const sweepOrphans = () =>
    void track(
      sweepOrphanFiles(ctx, options.orphanFileAgeSeconds ?? 3600).catch((err) =>
        ctx.log.error({ err }, 'sweep of leftover files failed'),
      ),
    );
  const orphans = setInterval(sweepOrphans, 24 * 3600_000);
  pumpAll();
  void purgeExpired().catch((err) => ctx.log.error({ err }, 'retention failed'));
  sweepOrphans();

  return {
    wake,
    purgeExpired,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(retention);
      clearInterval(orphans);
      clearInterval(testImages);
      await Promise.allSettled([...inFlight]);
      await pool.closeAll();
    },
  };
}
