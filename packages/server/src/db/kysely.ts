import path from 'node:path';
import { Kysely, type Migration, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
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
}): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const embedded = await startEmbeddedDatabase(path.join(options.dataDir, 'db'), {
    onUnexpectedExit: options.onUnexpectedExit,
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(embedded) });
  embeddedDatabases.set(db, embedded);
  return db;
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
