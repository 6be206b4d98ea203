import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { startEmbeddedDatabase } from './embedded-database.ts';
import { migrations } from './migrations/index.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

// Counters are bigint in SQL but stay far below 2^53: read them as numbers (pglite-host.ts does
// the same for PGlite).
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

/**
 * PostgreSQL through `DATABASE_URL`, else PGlite under `DATA_DIR/db`, run in a process of its own
 * (`pglite-host.ts`). `onUnexpectedExit` hears when that process dies under the server.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  onUnexpectedExit?: (code: number | null) => void;
  log?: Logger;
}): Promise<Db> {
  if (options.databaseUrl) {
    const pool = postgresPool(options.databaseUrl, options.log);
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const embedded = await startEmbeddedDatabase(path.join(options.dataDir, 'db'), {
    onUnexpectedExit: options.onUnexpectedExit,
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(embedded) });
  embeddedDatabases.add(db);
  return db;
}

/**
 * A PostgreSQL restart or fail-over ends every session with an `error` event (57P01
 * "terminating connection due to administrator command"): on an idle client the pool re-emits
 * it, on a checked-out one between two statements the client does. Unheard, either ends the
 * process (issue 29). Heard, the broken client leaves the pool and the next query connects
 * anew; a statement cut off fails its one caller (a request, a worker's try, which runs again).
 */
function postgresPool(databaseUrl: string, log: Logger | undefined): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const lost = (err: Error) =>
    log?.warn({ err }, 'a database connection was lost; the next query reconnects');
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}

/** Whether the database answers now (health; the wait at start-up). */
export async function databaseAnswers(db: Db, timeoutMs = 3000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answer = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Start-up on a PostgreSQL that is not there yet (a server booting with the machine, a fail-over
 * in progress): wait for it instead of exiting, with a log line every `logEveryMs`.
 */
export async function waitForDatabase(
  db: Db,
  log: Logger,
  options: { onWaiting?: () => void; logEveryMs?: number } = {},
): Promise<void> {
  const started = Date.now();
  let lastLog = 0;
  while (!(await databaseAnswers(db))) {
    if (lastLog === 0) options.onWaiting?.();
    if (Date.now() - lastLog >= (options.logEveryMs ?? 5000)) {
      lastLog = Date.now();
      log.warn(`waiting for the database (${Math.round((lastLog - started) / 1000)} s so far)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (lastLog > 0)
    log.warn(`the database answers after ${Math.round((Date.now() - started) / 1000)} s; starting`);
}

const embeddedDatabases = new WeakSet<Db>();

/** Whether `db` is the embedded PGlite (one session, transactions one after another). */
export const isEmbedded = (db: Db) => embeddedDatabases.has(db);

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
