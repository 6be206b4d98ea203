import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEmbeddedDatabase } from './embedded-database.ts';

// The embedded PGlite process on its own: values and errors cross the IPC channel intact,
// and the process is gone after close().
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-embedded-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('values and errors cross the process boundary; close() ends the process', {
  timeout: 60_000,
}, async () => {
  let unexpectedExit = false;
  const db = await startEmbeddedDatabase(dir, { onUnexpectedExit: () => (unexpectedExit = true) });
  const hostPid = Number(fs.readFileSync(path.join(dir, 'photorelay-host.pid'), 'utf8'));
  assert.ok(isAlive(hostPid), 'the database runs in its own process');
  assert.notEqual(hostPid, process.pid);

  await db.query('create table t (id serial primary key, at timestamptz, data bytea, n int8, doc jsonb)', []);
  const at = new Date('2026-11-23T10:00:00.123Z');
  const data = Buffer.from([0, 1, 2, 255]);
  await db.query('insert into t (at, data, n, doc) values ($1, $2, $3, $4)', [
    at,
    data,
    9007199254740991,
    { a: [1, 'ü'] },
  ]);
  const { rows } = await db.query('select at, data, n, doc from t', []);
  const row = rows[0] as { at: Date; data: Uint8Array; n: number; doc: unknown };
  assert.ok(row.at instanceof Date);
  assert.equal(row.at.toISOString(), at.toISOString());
  assert.deepEqual(Buffer.from(row.data), data);
  assert.equal(row.n, 9007199254740991, 'int8 arrives as a number');
  assert.deepEqual(row.doc, { a: [1, 'ü'] });

  const updated = await db.query('update t set n = n - 1', []);
  assert.equal(updated.affectedRows, 1);

  // Several statements without parameters run like pg's simple protocol.
  const multi = await db.query('select 1 as one; select 2 as two', []);
  assert.deepEqual(multi.rows, [{ two: 2 }]);

  await assert.rejects(db.query('select * from no_such_table', []), (err: Error & { code?: string }) => {
    assert.match(err.message, /no_such_table/);
    assert.equal(err.code, '42P01', 'the SQLSTATE comes along');
    return true;
  });
  // The connection is still usable after an error.
  assert.equal(((await db.query('select count(*)::int as n from t', [])).rows[0] as { n: number }).n, 1);

  await db.close();
  assert.equal(isAlive(hostPid), false, 'the process has exited');
  assert.equal(unexpectedExit, false, 'a requested close is not an unexpected exit');
  await assert.rejects(db.query('select 1', []), /stopped/);

  // Opening again finds the data (and no initdb: PG_VERSION exists).
  const again = await startEmbeddedDatabase(dir);
  assert.equal(((await again.query('select n from t', [])).rows[0] as { n: number }).n, 9007199254740990);
  await again.close();
});

test('a server killed with SIGKILL takes its database process with it', { timeout: 60_000 }, async () => {
  const killedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-embedded-kill-'));
  try {
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(import.meta.dirname, '../../test/support/hold-embedded-database.ts'),
        killedDir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const hostPid = await new Promise<number>((resolve, reject) => {
      holder.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      holder.once('exit', (code) => reject(new Error(`holder exited (${code})`)));
    });
    assert.ok(hostPid > 0 && isAlive(hostPid));
    holder.kill('SIGKILL');
    for (let waited = 0; isAlive(hostPid) && waited < 5000; waited += 50) await sleep(50);
    assert.equal(isAlive(hostPid), false, 'the database process left with its parent');

    // The next server opens the same files and finds them intact.
    const db = await startEmbeddedDatabase(killedDir);
    assert.deepEqual((await db.query('select 1 as one', [])).rows, [{ one: 1 }]);
    await db.close();
  } finally {
    fs.rmSync(killedDir, { recursive: true, force: true });
  }
});
