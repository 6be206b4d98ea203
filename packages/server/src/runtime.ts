import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { startInboundSmtp } from './adapters/mail/inbound-smtp.ts';
import { createMailer, type Mailer } from './adapters/mail/mailer.ts';
import { createPictureScaler } from './adapters/pictures/picture-scaler.ts';
import { createLocalBlobStore } from './adapters/storage/blob-store.ts';
import { buildApp } from './app.ts';
import type { CommandHandlers } from './commands/registry.ts';
import { startCommandRunner } from './commands/runner.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { secureDataDir } from './data-dir.ts';
import { type Db, migrate, openDatabase, waitForDatabase } from './db/kysely.ts';
import { startEmbeddedMaintenance } from './db/maintenance.ts';
import { listenForWakeups, notifyWorkers, wakeTopics } from './db/wake-channel.ts';
import { answerDatabaseUnavailable } from './http/database-wait.ts';
import { startIngest } from './ingest/start.ts';
import { createLog } from './log.ts';
import { acceptsReplyAddress, receiveCalendarReply } from './modules/calendar/calendar-replies.ts';
import { externalCalendarCommands } from './modules/externalcalendars/commands.ts';
import { eventStampStep } from './modules/externalcalendars/event-stamp-step.ts';
import { startExternalCalendarRefresh } from './modules/externalcalendars/service.ts';
import { ftpServerCommands } from './modules/ftpservers/commands.ts';
import { metadataCommands } from './modules/metadata/commands.ts';
import { scriptCommands } from './modules/scripts/commands.ts';
import { scriptStep } from './modules/scripts/processing-step.ts';
import { startProvisioning } from './modules/teams/provisioning.ts';
import { watchDataDisk } from './observe/data-disk.ts';
import { observeDataDisk, observeQueue } from './observe/metrics.ts';
import { startMetricsListener } from './observe/metrics-listener.ts';
import { readQueueFigures } from './observe/queries.ts';
import { startControlSocket } from './ops/control-socket.ts';
import { metadataStep } from './pipeline/metadata-step.ts';
import type { ProcessingStep } from './pipeline/processing.ts';
import { startPipelineWorker } from './pipeline/worker.ts';

export type Role = 'all' | 'web' | 'ingest' | 'worker';

/**
 * What every upload goes through before delivery, in order: a booked event's fields fill what the
 * template leaves unset; scripts see what the template and the event produced.
 */
export const processingSteps: readonly ProcessingStep[] = [metadataStep, eventStampStep, scriptStep];

/** A handler for every command kind (commands/kinds.ts); the test image runs through `steps`. */
export const commandHandlers = (steps: readonly ProcessingStep[]) => ({
  ...metadataCommands(steps),
  ...scriptCommands,
  ...ftpServerCommands,
  ...externalCalendarCommands,
});

export interface Running {
  ctx: AppContext;
  app?: FastifyInstance;
  url?: string;
  ingest?: { ftpPort: number; sftpPort: number; implicitPort?: number; close(): Promise<void> };
  /** The port of the calendar replies' SMTP listener, when INBOUND_SMTP_PORT is set. */
  inboundSmtpPort?: number;
  stop(): Promise<void>;
}

/** Starts what a role runs: web = HTTP API + app; worker = background loops; all = both. */
export async function startPhotoRelay(
  config: Config,
  options: {
    role?: Role;
    log?: Logger;
    db?: Db;
    mailer?: Mailer;
    listen?: boolean;
    /** How often the worker's loops look for work without a wake-up (tests set it long). */
    pollMs?: number;
    /** Instead of `processingSteps` (tests add steps of their own). */
    steps?: readonly ProcessingStep[];
    /** Handlers of further command kinds (tests). */
    extraCommandHandlers?: CommandHandlers;
  } = {},
): Promise<Running> {
  const role = options.role ?? 'all';
  const log = options.log ?? createLog(config.LOG_LEVEL);
  secureDataDir(config.DATA_DIR);
  const db =
    options.db ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      log,
      // Nothing works without the database: exit, so that the supervisor starts us afresh.
      onUnexpectedExit: (code) => {
        log.fatal(`the embedded database process stopped (exit ${code}); exiting`);
        process.exit(1);
      },
    }));
  if (!options.db) {
    if (config.DATABASE_URL) {
      // Meanwhile the HTTP port says why nothing works yet (health probes, browsers).
      let waiting: Promise<{ close(): Promise<void> }> | undefined;
      const answers = role !== 'ingest' && role !== 'worker' && options.listen !== false;
      await waitForDatabase(db, log, {
        onWaiting: () => {
          if (answers) waiting = answerDatabaseUnavailable(config.PORT, config.HOST);
        },
      });
      await (await waiting?.catch(() => undefined))?.close();
    }
    await migrate(db);
  }
  const mailer =
    options.mailer ??
    createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log });

  const blobsRoot = path.join(config.DATA_DIR, 'files');
  const blobs = createLocalBlobStore(blobsRoot);
  const wake = { provisioning: () => {}, commands: () => {}, pipeline: () => {} };
  const pictures = createPictureScaler({
    timeMs: config.PICTURE_TIME_LIMIT_MS,
    memoryBytes: config.PICTURE_MEMORY_LIMIT_MB * 1024 * 1024,
    decodeBytes: config.PICTURE_DECODE_BUDGET_MB * 1024 * 1024,
  });
  const disk = watchDataDisk({
    path: blobsRoot,
    minFreeBytes: config.DISK_FREE_MIN_MB * 1024 * 1024,
    checkMs: config.DISK_CHECK_SECONDS * 1000,
    log,
  });
  await disk.check();
  const ctx: AppContext = { config, db, mailer, log, blobs, pictures, wake, disk, parts: { ingest: 'none' } };
  observeQueue(() => readQueueFigures(db));
  observeDataDisk(disk.state);
  const stops: Array<() => Promise<void> | void> = [pictures.close, disk.stop];

  if (role === 'all' || role === 'worker') {
    const steps = options.steps ?? processingSteps;
    // First: it refuses to start when a command kind has no handler, before anything else runs.
    const commands = startCommandRunner(ctx, {
      handlers: { ...commandHandlers(steps), ...options.extraCommandHandlers },
      pollMs: options.pollMs,
    });
    const provisioning = startProvisioning(db, log);
    wake.provisioning = provisioning.wake;
    wake.commands = commands.wake;
    const pipeline = startPipelineWorker(ctx, {
      steps,
      concurrency: config.WORKER_CONCURRENCY,
      leaseSeconds: config.JOB_LEASE_SECONDS,
      retentionDays: config.RETENTION_DAYS,
      storageFullRetrySeconds: config.STORAGE_FULL_RETRY_SECONDS,
      orphanFileAgeSeconds: config.ORPHAN_FILE_AGE_SECONDS,
      pollMs: options.pollMs,
    });
    wake.pipeline = pipeline.wake;
    const calendarRefresh = startExternalCalendarRefresh(ctx);
    stops.push(provisioning.stop, commands.stop, pipeline.stop, calendarRefresh.stop);
    // The embedded database has no autovacuum; a PostgreSQL server runs its own.
    if (!config.DATABASE_URL && !options.db) {
      stops.push(startEmbeddedMaintenance(db, log).stop);
      // `main.mjs backup` asks this process for the dump of the database it owns.
      stops.push(startControlSocket(db, config.DATA_DIR, log));
    }
    // Other processes on the same PostgreSQL (split roles) announce their work.
    if (config.DATABASE_URL) {
      const listener = listenForWakeups(config.DATABASE_URL, log, (topic) => wake[topic]());
      stops.push(listener.close);
    }
  } else if (config.DATABASE_URL) {
    // No worker in this process: tell the workers of the others.
    for (const topic of wakeTopics) wake[topic] = () => notifyWorkers(db, log, topic);
  }

  if (config.METRICS_PORT !== undefined) {
    stops.push(await startMetricsListener(config.METRICS_PORT, config.METRICS_HOST, log));
  }

  let ingest: Running['ingest'];
  if (role === 'all' || role === 'ingest') {
    ingest = await startIngest(ctx);
    ctx.parts.ingest = 'listening';
    const started = ingest;
    stops.unshift(() => {
      ctx.parts.ingest = 'stopped';
      return started.close();
    });
  }

  // Calendar apps' answers to event invitations (issue 27 item 5), where the API runs.
  let inboundSmtpPort: number | undefined;
  if ((role === 'all' || role === 'web') && config.INBOUND_SMTP_PORT !== undefined) {
    if (!config.INBOUND_MAIL_DOMAIN)
      log.warn('INBOUND_SMTP_PORT is set without INBOUND_MAIL_DOMAIN: no reply address is handed out');
    const inbound = await startInboundSmtp({
      port: config.INBOUND_SMTP_PORT,
      host: config.INBOUND_SMTP_HOST ?? config.HOST,
      maxBytes: config.INBOUND_MAIL_MAX_BYTES,
      log,
      accepts: (address) => acceptsReplyAddress(ctx, address),
      deliver: (recipient, raw) => receiveCalendarReply(ctx, recipient, raw),
    });
    inboundSmtpPort = inbound.port;
    stops.unshift(inbound.close);
  }

  let app: FastifyInstance | undefined;
  let url: string | undefined;
  if (role === 'all' || role === 'web') {
    app = await buildApp(ctx);
    if (options.listen !== false) {
      await app.listen({ port: config.PORT, host: config.HOST });
      const address = app.server.address();
      url = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : undefined;
    } else {
      await app.ready();
    }
    const started = app;
    stops.unshift(() => started.close());
  }

  return {
    ctx,
    app,
    url,
    ingest,
    inboundSmtpPort,
    async stop() {
      for (const stop of stops) await stop();
      if (!options.db) await db.destroy();
    },
  };
}
