import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { CommandHandlers } from '../../src/commands/registry.ts';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/kysely.ts';
import type { ProcessingStep } from '../../src/pipeline/processing.ts';
import { type Role, type Running, startPhotoRelay } from '../../src/runtime.ts';
import { TestClient } from './client.ts';
import { removeQuietly, sharedDatabaseUrl, sharedDb } from './database.ts';
import { startMailCatcher } from './mail.ts';

export interface TestServer {
  url: string;
  running: Running;
  mail: Awaited<ReturnType<typeof startMailCatcher>>;
  client(): TestClient;
  stop(): Promise<void>;
}

/**
 * The real server on a free loopback port, on the process's shared database, mailing to a real
 * SMTP catcher. `role: 'web'` runs no worker and no ingest: for tests that drive queues themselves.
 * Servers given one `dataDir` share their files (split roles); `pollMs` is how often the worker
 * looks for work without a wake-up.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    role?: Role;
    dataDir?: string;
    pollMs?: number;
    /** Processing steps instead of the server's own (runtime.ts processingSteps). */
    steps?: readonly ProcessingStep[];
    /** Handlers of the test's own command kinds. */
    commandHandlers?: CommandHandlers;
    /** Wraps the shared test database, e.g. with a Kysely plugin that watches the queries. */
    wrapDb?: (db: Db) => Db;
  } = {},
): Promise<TestServer> {
  const shared = await sharedDb();
  const db = options.wrapDb ? options.wrapDb(shared) : shared;
  const databaseUrl = await sharedDatabaseUrl();
  const mail = await startMailCatcher();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-test-'));
  const config = loadConfig({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    PORT: '1',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SMTP_URL: mail.url,
    SEED_DEMO: '0',
    AUTH_RATE_LIMIT: '1000',
    LOG_LEVEL: 'warn',
    ...env,
  });
  config.PORT = 0;
  config.FTP_PORT = 0;
  config.SFTP_PORT = 0;
  const running = await startPhotoRelay(config, {
    db,
    log: pino({ level: config.LOG_LEVEL }),
    role: options.role,
    pollMs: options.pollMs,
    steps: options.steps,
    extraCommandHandlers: options.commandHandlers,
  });
  const url = running.url as string;
  // Links in mails use PUBLIC_URL, the overview shows the ingest ports: the real ports are only known now.
  config.publicUrl = url;
  config.FTP_PORT = running.ingest?.ftpPort ?? 0;
  config.SFTP_PORT = running.ingest?.sftpPort ?? 0;
  return {
    url,
    running,
    mail,
    client: () => new TestClient(url),
    async stop() {
      await running.stop();
      await mail.close();
      if (!options.dataDir) removeQuietly(dataDir);
    },
  };
}
