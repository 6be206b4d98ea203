import path from 'node:path';
import { Kysely, type Migration, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { type EmbeddedDatabase, startEmbeddedDatabase } from './embedded-database.ts';
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
  embeddedDatabases.set(db, embedded);
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

const embeddedDatabases = new WeakMap<Db, EmbeddedDatabase>();

/** Whether `db` is the embedded PGlite (one session, transactions one after another). */
export const isEmbedded = (db: Db) => embeddedDatabases.has(db);

/** A consistent copy of the embedded database's files into `dir` (backups); PostgreSQL has pg_dump. */
export async function dumpEmbedded(db: Db, dir: string): Promise<void> {
  const embedded = embeddedDatabases.get(db);
  if (!embedded) throw new Error('not the embedded database');
  await embedded.dump(dir);
}

/**
 * Brings the schema up to this release. All pending migrations run in one transaction (Kysely
 * does so where DDL is transactional, as on PostgreSQL and PGlite): a failing one leaves the
 * database as it was, and start-up stops with the migration's name and the reason.
 * `list` is for tests (a migration made to fail).
 */
export async function migrate(db: Db, list: Record<string, Migration> = migrations): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => list },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(
      `Database upgrade failed at migration ${failed?.migrationName ?? '(none)'}: ${reason}. ` +
        'Nothing was changed: the data is as the previous release left it. Start the previous release, or report this.',
    );
  }
}

export class MigrationError extends Error {}
