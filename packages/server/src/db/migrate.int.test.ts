import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { sharedDb } from '../../test/support/database.ts';
import { migrate } from './kysely.ts';
import { migrations } from './migrations/index.ts';

// Issue 30 item 3: an upgrade whose migration fails must leave the data as the previous release
// left it, and say so plainly.
test('a failing migration changes nothing: the ones before it in the same start are rolled back too', async () => {
  const db = await sharedDb();
  const tableExists = async (name: string) =>
    (await sql<{ found: string | null }>`select to_regclass(${name})::text as found`.execute(db)).rows[0]
      ?.found !== null;
  const applied = async () =>
    (await sql<{ name: string }>`select name from schema_migrations order by name`.execute(db)).rows.map(
      (r) => r.name,
    );
  const before = await applied();

  const upgrade = {
    ...migrations,
    '9998-adds-a-table': {
      up: async (trx: typeof db) => {
        await sql`create table upgrade_probe (id int primary key)`.execute(trx);
        await sql`alter table teams add column upgrade_probe int`.execute(trx);
      },
    },
    '9999-fails': {
      up: async () => {
        throw new Error('disk on fire');
      },
    },
  };
  await assert.rejects(
    migrate(db, upgrade as typeof migrations),
    /Database upgrade failed at migration 9999-fails: disk on fire\. Nothing was changed/,
  );
  assert.equal(
    await tableExists('upgrade_probe'),
    false,
    'the earlier migration of the same start is rolled back',
  );
  const columns =
    await sql`select 1 from information_schema.columns where table_name = 'teams' and column_name = 'upgrade_probe'`.execute(
      db,
    );
  assert.equal(columns.rows.length, 0);
  assert.deepEqual(await applied(), before);
  // And the current release's own set still applies (nothing pending, nothing run twice).
  await migrate(db);
  assert.deepEqual(await applied(), before);
});
