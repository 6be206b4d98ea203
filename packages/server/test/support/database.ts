import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Db, migrate, openDatabase } from '../../src/db/kysely.ts';

let shared: Promise<Db> | undefined;
let sharedUrl: string | undefined;

export const testBackend = () => (process.env.PHOTORELAY_TEST_DB === 'postgres' ? 'postgres' : 'pglite');

/**
 * One database per test process (a new PGlite takes seconds to start): PGlite in a temp dir, or a
 * database of its own on the PostgreSQL server of TEST_DATABASE_URL. Each test server runs a
 * worker, and workers sharing one database would take each other's jobs (whose files live in
 * another DATA_DIR). Tests isolate themselves by making their own teams.
 */
export function sharedDb(): Promise<Db> {
  shared ??= (async () => {
    const serverUrl = testBackend() === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
    if (testBackend() === 'postgres' && !serverUrl)
      throw new Error('PHOTORELAY_TEST_DB=postgres needs TEST_DATABASE_URL');
    const databaseUrl = serverUrl ? await createProcessDatabase(serverUrl) : undefined;
    sharedUrl = databaseUrl;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-db-'));
    // One per test process (PGlite's files, ~40 MB): gone with the process, not left in /tmp.
    process.once('exit', () => removeQuietly(dataDir));
    const db = await openDatabase({ databaseUrl, dataDir });
    await migrate(db);
    return db;
  })();
  return shared;
}

/** The shared database's URL on PostgreSQL (undefined on PGlite, whose process only its opener reaches). */
export async function sharedDatabaseUrl(): Promise<string | undefined> {
  await sharedDb();
  return sharedUrl;
}

async function createProcessDatabase(serverUrl: string): Promise<string> {
  const name = `photorelay_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Removes a folder a test made, ignoring a process that is still writing into it while it exits. */
export function removeQuietly(folder: string) {
  try {
    fs.rmSync(folder, { recursive: true, force: true, maxRetries: 2 });
  } catch {}
}
