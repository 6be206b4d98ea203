import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { sharedDb, testBackend } from '../../test/support/database.ts';
import { analyzeChangedTables, tablePages, vacuumAnalyze } from './maintenance.ts';

// The embedded database has no autovacuum: the hourly maintenance gives its planner statistics
// and reclaims dead rows. Runs on both backends (on PostgreSQL it is what autovacuum does).
test(`vacuum (analyze) gives the planner statistics (${testBackend()})`, async () => {
  const db = await sharedDb();
  const analyzed = async () => {
    const { rows } = await sql<{ analyzed: boolean }>`
      select last_analyze is not null or last_autoanalyze is not null as analyzed
      from pg_stat_user_tables where relname = 'jobs'`.execute(db);
    return rows[0]?.analyzed;
  };
  // Nothing analyzes the embedded database's tables on its own.
  if (testBackend() === 'pglite') assert.equal(await analyzed(), false);
  await vacuumAnalyze(db);
  assert.equal(await analyzed(), true);
});

// Issue 29: between the hourly runs, a table whose size changed tenfold is analyzed at once.
test(`a table ten times smaller or larger than last seen is analyzed again (${testBackend()})`, async () => {
  const db = await sharedDb();
  const seen = await tablePages(db);
  assert.ok((seen.get('jobs') ?? 0) >= 1);
  assert.deepEqual(await analyzeChangedTables(db, seen), [], 'nothing changed');
  seen.set('jobs', (seen.get('jobs') ?? 1) * 10);
  seen.set('uploads', Math.max(1, Math.floor((seen.get('uploads') ?? 1) / 10)) / 10);
  assert.deepEqual((await analyzeChangedTables(db, seen)).sort(), ['jobs', 'uploads']);
  assert.deepEqual(await analyzeChangedTables(db, seen), [], 'seen as analyzed now');
});
