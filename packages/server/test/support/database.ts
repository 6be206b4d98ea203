import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Db, migrate, openDatabase } from '../../src/db/kysely.ts';

let shared: Promise<Db> | undefined;

export const testBackend = () => (process.env.PHOTORELAY_TEST_DB === 'postgres' ? 'postgres' : 'pglite');

/**
 * One database per test process (a new PGlite takes seconds to start): PGlite in a temp dir, or
 * the PostgreSQL server of TEST_DATABASE_URL. Tests isolate themselves by making their own teams.
 */
export function sharedDb(): Promise<Db> {
  shared ??= (async () => {
    const databaseUrl = testBackend() === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
    if (testBackend() === 'postgres' && !databaseUrl)
      throw new Error('PHOTORELAY_TEST_DB=postgres needs TEST_DATABASE_URL');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-db-'));
    const db = await openDatabase({ databaseUrl, dataDir });
    await migrate(db);
    return db;
  })();
  return shared;
}
