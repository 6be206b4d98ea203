import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

// Counters are bigint in SQL but stay far below 2^53: read them as numbers on both drivers.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const dir = path.join(options.dataDir, 'db');
  fs.mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir, {
    parsers: { [types.INT8]: (value: string) => Number.parseInt(value, 10) },
    startParams: pgliteStartParams(),
  });
  return new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
}

/**
 * PGlite's defaults minus `-F` (fsync off): an acknowledged upload must survive a power loss,
 * not only a killed process. A smaller buffer pool keeps the embedded server's memory modest.
 */
function pgliteStartParams(): string[] {
  const defaults = (PGlite as unknown as { defaultStartParams?: string[] }).defaultStartParams ?? [
    '--single',
  ];
  return [...defaults.filter((p) => p !== '-F'), '-c', 'shared_buffers=16MB'];
}

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
