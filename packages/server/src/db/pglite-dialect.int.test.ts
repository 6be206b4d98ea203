import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from './kysely.ts';

// The PGlite dialect sends queries without waiting for the previous answer (issue 15); a
// transaction still has the one session to itself.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-dialect-'));
let db: Kysely<unknown>;
before(async () => {
  db = (await openDatabase({ dataDir: dir })) as unknown as Kysely<unknown>;
  await sql`create table t (id serial primary key, n int not null)`.execute(db);
});
after(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('queries sent at once run in the order they were sent, and one failing fails alone', async () => {
  const results = await Promise.allSettled(
    Array.from({ length: 40 }, (_, i) =>
      i === 7
        ? sql`select 1 / 0`.execute(db)
        : sql<{ id: number }>`insert into t (n) values (${i}) returning id`.execute(db),
    ),
  );
  assert.equal(results.filter((r) => r.status === 'rejected').length, 1);
  assert.equal(results[7]?.status, 'rejected');
  const rows = await sql<{ n: number }>`select n from t order by id`.execute(db);
  assert.deepEqual(
    rows.rows.map((r) => r.n),
    Array.from({ length: 40 }, (_, i) => i).filter((i) => i !== 7),
  );
});

test('a query sent while a transaction is open runs after it, never inside it', async () => {
  await sql`delete from t`.execute(db);
  let inserted!: () => void;
  const insertedYet = new Promise<void>((resolve) => {
    inserted = resolve;
  });
  let finish!: () => void;
  const finishing = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const transaction = db
    .transaction()
    .execute(async (trx) => {
      await sql`insert into t (n) values (1)`.execute(trx);
      inserted();
      await finishing;
      throw new Error('roll back');
    })
    .catch((error: Error) => error.message);
  await insertedYet;
  // Inside the transaction this would see the uncommitted row (one session).
  const counting = sql<{ n: number }>`select count(*)::int as n from t`.execute(db);
  const failing = sql`select 1 / 0`.execute(db).catch(() => 'failed');
  await new Promise((resolve) => setTimeout(resolve, 50));
  finish();
  assert.equal(await transaction, 'roll back');
  assert.equal((await counting).rows[0]?.n, 0);
  // A failure sent meanwhile failed on its own, after the transaction.
  assert.equal(await failing, 'failed');
  const committed = await db.transaction().execute(async (trx) => {
    await sql`insert into t (n) values (2)`.execute(trx);
    return (await sql<{ n: number }>`select count(*)::int as n from t`.execute(trx)).rows[0]?.n;
  });
  assert.equal(committed, 1);
});

test('transactions take turns; standalone queries go on between them', async () => {
  await sql`delete from t`.execute(db);
  await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      Promise.all([
        db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from t`.execute(trx);
          // Another transaction's insert between this count and this insert would break the sequence.
          await new Promise((resolve) => setTimeout(resolve, 5));
          await sql`insert into t (n) values (${rows[0]?.n ?? -1})`.execute(trx);
        }),
        sql`select ${i}`.execute(db),
      ]),
    ),
  );
  const { rows } = await sql<{ n: number }>`select n from t order by id`.execute(db);
  assert.deepEqual(
    rows.map((r) => r.n),
    [0, 1, 2, 3, 4],
  );
});
