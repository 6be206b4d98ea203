import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startEmbeddedDatabase } from './embedded-database.ts';

// The embedded database keeps statements with parameters prepared under a name
// (pglite-statements.ts): a statement run again with other values, after DDL, after an error,
// inside a rolled-back transaction and beyond the cache's size answers as a fresh one would.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-statements-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('prepared statements answer like fresh ones', { timeout: 120_000 }, async () => {
  const db = await startEmbeddedDatabase(dir);
  try {
    await db.query('create table s (id int primary key, name text, at timestamptz, tags text[])', []);
    const insert = 'insert into s (id, name, at, tags) values ($1, $2, $3, $4)';
    const at = new Date('2026-03-29T01:30:00.000Z');
    for (const id of [1, 2, 3]) {
      const r = await db.query(insert, [id, id === 2 ? null : `n${id}`, at, [`t${id}`, 'x']]);
      assert.equal(r.affectedRows, 1);
    }
    const byIds = 'select id, name, at, tags from s where id = any($1) order by id';
    assert.deepEqual(
      (await db.query(byIds, [[1, 2]])).rows.map((r) => (r as { id: number }).id),
      [1, 2],
    );
    const again = (await db.query(byIds, [[3]])).rows as Array<{ name: string; at: Date; tags: string[] }>;
    assert.equal(again.length, 1, 'the same text with other values');
    assert.equal(again[0]?.name, 'n3');
    assert.equal(again[0]?.at.toISOString(), at.toISOString());
    assert.deepEqual(again[0]?.tags, ['t3', 'x']);
    assert.equal(((await db.query(byIds, [[2]])).rows[0] as { name: null }).name, null);

    // An error keeps its SQLSTATE, and the statement works afterwards.
    await assert.rejects(db.query(insert, [1, 'dup', at, []]), (e: Error & { code?: string }) => {
      assert.equal(e.code, '23505');
      return true;
    });
    assert.equal((await db.query(insert, [4, 'n4', at, []])).affectedRows, 1);

    // In a transaction that fails and is rolled back, then outside it.
    await db.query('begin', []);
    await db.query(insert, [5, 'n5', at, []]);
    await assert.rejects(db.query(insert, [5, 'n5', at, []]));
    await db.query('rollback', []);
    const left = await db.query('select count(*)::int as n from s where id >= $1', [5]);
    assert.equal((left.rows[0] as { n: number }).n, 0);

    // After DDL the cached `select *` has another result type: it is prepared again.
    const star = 'select * from s where id = $1';
    assert.equal(Object.keys((await db.query(star, [1])).rows[0] as object).length, 4);
    await db.query('alter table s add column extra int default 7', []);
    assert.deepEqual(Object.keys((await db.query(star, [1])).rows[0] as object).length, 5);
    assert.equal(((await db.query(star, [1])).rows[0] as { extra: number }).extra, 7);

    // More distinct statements than the cache keeps; the first ones still answer.
    for (let i = 0; i < 260; i++) {
      const { rows } = await db.query(`select $1::int + ${i} as v`, [1]);
      assert.equal((rows[0] as { v: number }).v, 1 + i);
    }
    assert.equal(((await db.query('select $1::int + 0 as v', [5])).rows[0] as { v: number }).v, 5);
    assert.equal((await db.query(byIds, [[1, 4]])).rows.length, 2);

    // A long text (not kept) with parameters.
    const long = `select $1::int as v /* ${'x'.repeat(9_000)} */`;
    assert.equal(((await db.query(long, [9])).rows[0] as { v: number }).v, 9);
  } finally {
    await db.close();
  }
});
