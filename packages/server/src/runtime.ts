import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import { startCommandRunner } from './commands/runner.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { type Db, migrate, openDatabase } from './db/kysely.ts';
import { listenForWakeups, notifyWorkers, wakeTopics } from './db/wake-channel.ts';
import { createLog } from './log.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import './modules/metadata/processing-step.ts';
// After the template, before scripts: a booked event's fields fill what the template leaves unset.
import './modules/externalcalendars/event-stamp-step.ts';
// After the metadata step: scripts see what the template produced.
import './modules/scripts/processing-step.ts';
import { startIngest } from './ingest/start.ts';
import { startExternalCalendarRefresh } from './modules/externalcalendars/service.ts';
import { startProvisioning } from './modules/teams/provisioning.ts';
import { createLocalBlobStore } from './storage/blob-store.ts';
import { secureDataDir } from './storage/data-dir.ts';
import { startPipelineWorker } from './transfer/worker.ts';

export type Role = 'all' | 'web' | 'ingest' | 'worker';

export interface Running {
  ctx: AppContext;
  app?: FastifyInstance;
  url?: string;
  ingest?: { ftpPort: number; sftpPort: number; implicitPort?: number; close(): Promise<void> };
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
      // Nothing works without the database: exit, so that the supervisor starts us afresh.
      onUnexpectedExit: (code) => {
        log.fatal(`the embedded database process stopped (exit ${code}); exiting`);
        process.exit(1);
      },
    }));
  if (!options.db) await migrate(db);
  const mailer =
    options.mailer ??
    createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log });

  const blobs = createLocalBlobStore(path.join(config.DATA_DIR, 'files'));
  const wake = { provisioning: () => {}, commands: () => {}, pipeline: () => {} };
  const ctx: AppContext = { config, db, mailer, log, blobs, wake };
  const stops: Array<() => Promise<void> | void> = [];

  if (role === 'all' || role === 'worker') {
    const provisioning = startProvisioning(db, log);
    const commands = startCommandRunner(ctx, { pollMs: options.pollMs });
    wake.provisioning = provisioning.wake;
    wake.commands = commands.wake;
    const pipeline = startPipelineWorker(ctx, {
      concurrency: config.WORKER_CONCURRENCY,
      leaseSeconds: config.JOB_LEASE_SECONDS,
      retentionDays: config.RETENTION_DAYS,
      pollMs: options.pollMs,
    });
    wake.pipeline = pipeline.wake;
    const calendarRefresh = startExternalCalendarRefresh(ctx);
    stops.push(provisioning.stop, commands.stop, pipeline.stop, calendarRefresh.stop);
    // Other processes on the same PostgreSQL (split roles) announce their work.
    if (config.DATABASE_URL) {
      const listener = listenForWakeups(config.DATABASE_URL, log, (topic) => wake[topic]());
      stops.push(listener.close);
    }
  } else if (config.DATABASE_URL) {
    // No worker in this process: tell the workers of the others.
    for (const topic of wakeTopics) wake[topic] = () => notifyWorkers(db, log, topic);
  }

  let ingest: Running['ingest'];
  if (role === 'all' || role === 'ingest') {
    ingest = await startIngest(ctx);
    const started = ingest;
    stops.unshift(() => started.close());
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
    async stop() {
      for (const stop of stops) await stop();
      if (!options.db) await db.destroy();
    },
  };
}
