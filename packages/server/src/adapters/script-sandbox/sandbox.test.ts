import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createScriptSandbox, type ScriptInput } from './sandbox.ts';

const sandbox = createScriptSandbox({ timeMs: 200, memoryBytes: 32 * 1024 * 1024 });
after(() => sandbox.close());

const input = (): ScriptInput => ({
  file: { name: 'IMG_0001.jpg', folder: 'sport/match', size: 1234, type: 'image/jpeg' },
  meta: [
    { p: 'description', v: 'Caption', lang: 'x-default' },
    { p: 'keywords', v: 'one', pos: 0 },
    { p: 'cityName', v: 'Berlin' },
  ],
  exif: { Make: 'Canon', SerialNumber: '123' },
  project: { name: 'Demo' },
  destinations: ['Agency FTP', 'Archive'],
});
const run = (source: string, name = 'project.script') => sandbox.run([{ name, source }], input());

async function expectError(source: string, pattern: RegExp) {
  const result = await run(source);
  assert.equal(result.ok, false, `expected a failure for ${source}`);
  if (!result.ok) assert.match(result.error.message, pattern);
  return result;
}

/** After any attack, a normal script still runs. */
async function stillWorks() {
  const result = await run("meta.set('caption', 'fine')");
  assert.equal(result.ok, true);
  if (result.ok) assert.equal(result.output.meta.find((m) => m.p === 'description')?.v, 'fine');
}

describe('script sandbox', () => {
  test('the API reads and writes', async () => {
    const result = await run(`
      meta.append('caption', file.folder);
      meta.add('keywords', 'two');
      meta.set('city', meta.get('city').toUpperCase());
      meta.lang('caption', 'de', 'Bildtext');
      file.name = 'renamed-' + file.name;
      if (exif.get('Make') === 'Canon') skip('Archive');
      log('serial', exif.get('SerialNumber'), project.name, destinations.length);
    `);
    assert.equal(result.ok, true);
    if (!result.ok) return;
    const o = result.output;
    assert.equal(o.file.name, 'renamed-IMG_0001.jpg');
    assert.deepEqual(o.skipped, ['Archive']);
    assert.deepEqual(o.log, ['serial 123 Demo 2']);
    assert.deepEqual(o.written, ['description', 'keywords', 'cityName']);
    const get = (p: string) => o.meta.filter((m) => m.p === p).map((m) => `${m.lang ?? ''}${m.v}`);
    assert.deepEqual(get('description'), ['x-defaultCaption sport/match', 'deBildtext']);
    assert.deepEqual(get('keywords'), ['one', 'two']);
    assert.deepEqual(get('cityName'), ['BERLIN']);
  });

  test('only the properties a script wrote come back', async () => {
    const result = await run("meta.set('city', 'Berlin'); meta.get('caption'); log(file.name)");
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.deepEqual(result.output.written, ['cityName']);
    assert.deepEqual(result.output.meta, [{ p: 'cityName', v: 'Berlin' }]);
    const none = await run("meta.get('caption'); log('read only')");
    assert.deepEqual(none.ok && [none.output.written, none.output.meta], [[], []]);
  });

  test('reject ends the run with its reason, even when caught', async () => {
    const result = await run("try { reject('no model release') } catch (e) {} meta.set('caption', 'x')");
    assert.equal(result.ok, true);
    if (result.ok) assert.equal(result.output.rejected, 'no model release');
  });

  test('scripts run in order and see what the previous one left', async () => {
    const result = await sandbox.run(
      [
        { name: 'folder.script', source: "let x = 1; meta.set('headline', 'A')" },
        { name: 'project.script', source: "let x = 2; meta.append('headline', 'B'); log(typeof x)" },
      ],
      input(),
    );
    assert.equal(result.ok, true);
    if (result.ok) assert.deepEqual(result.output.meta.find((m) => m.p === 'headline')?.v, 'A B');
  });

  test('a syntax error and an exception name their position', async () => {
    const syntax = await expectError('let a = 1;\nlet b = ;', /unexpected token/);
    assert.equal(syntax.ok || syntax.error.position, 'project.script 2:9');
    const thrown = await expectError('\n  null.x;', /cannot read property/);
    assert.equal(thrown.ok || thrown.error.position, 'project.script 2:7');
    const api = await expectError("meta.set('nosuchthing', 1)", /unknown property "nosuchthing"/);
    assert.equal(api.ok || api.error.position, 'project.script 1:9');
    assert.equal((await sandbox.check({ name: 'x.script', source: 'let a = ;' }))?.position, 'x.script 1:9');
    assert.equal(await sandbox.check({ name: 'x.script', source: 'let a = 2' }), null);
  });

  test('an infinite loop stops at the time limit', async () => {
    const started = Date.now();
    await expectError('for (;;) {}', /time limit of 200 ms exceeded/);
    assert.ok(Date.now() - started < 1500);
    await stillWorks();
  });

  test('a native call that runs long between interrupt checks is ended by the host', async () => {
    const started = Date.now();
    await expectError('let a = []; for (;;) a.push("x".repeat(1e5))', /time limit of 200 ms exceeded|memory/);
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    await stillWorks();
  });

  test('deep recursion, huge strings and arrays stop with a clear error', async () => {
    await expectError('function f() { return f() + 1 } f()', /stack overflow/);
    await expectError('let s = "x"; for (;;) s += s', /string too long|memory limit/);
    await expectError('new Array(1e8).fill(1)', /memory limit of 32 MB exceeded|time limit/);
    await expectError(
      'let a = []; for (;;) a.push({ n: a.length })',
      /memory limit of 32 MB exceeded|time limit/,
    );
    await stillWorks();
  });

  test('no way out: require, process, timers, host objects', async () => {
    await expectError("require('fs')", /require' is not defined/);
    await expectError('process.exit(1)', /process' is not defined/);
    await expectError('setTimeout(() => {}, 1)', /setTimeout' is not defined/);
    await expectError(
      "globalThis.constructor.constructor('return process')().exit()",
      /process' is not defined/,
    );
    await expectError("(function(){ return this })().require('child_process')", /not a function/);
    const probe = await run(
      'log(Object.getOwnPropertyNames(globalThis).filter((n) => /require|process|fetch|std|os|console|Deno|Bun/.test(n)).join(","))',
    );
    assert.equal(probe.ok && probe.output.log[0], '');
    await stillWorks();
  });

  test('prototype pollution stays inside the sandbox', async () => {
    const result = await run(
      "Object.prototype.polluted = 'yes'; Array.prototype.push = null; JSON.stringify = () => 'x'; meta.set('caption', 'ok')",
    );
    assert.equal(result.ok, true);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(typeof [].push, 'function');
    await expectError("'use strict'; meta = null", /read-only|not writable|cannot assign/i);
    // Replacing the API only spoils the script's own result; the host checks that result anyway.
    const kept = await run(
      "meta.set('caption', 'before'); try { Object.defineProperty(globalThis, 'meta', { value: 1 }) } catch (e) {}",
    );
    assert.equal(kept.ok && kept.output.meta.find((m) => m.p === 'description')?.v, 'before');
    await stillWorks();
  });

  test('throwing non-Error values', async () => {
    await expectError('throw 42', /uncaught 42/);
    await expectError("throw 'text'", /uncaught text/);
    await expectError('throw { get message() { for (;;) {} } }', /not an Error|time limit/);
    await expectError('throw Symbol("s")', /symbol/);
    await expectError('throw null', /uncaught|null/);
    await stillWorks();
  });

  test('nothing of one upload reaches the next: globals, prototypes, the API itself', async () => {
    const first = await run(
      "globalThis.leak = 1; Object.prototype.seen = 1; String.prototype.toUpperCase = () => 'x'; meta.set('caption', 'one')",
    );
    assert.equal(first.ok, true);
    const next = await run(
      "log(typeof leak, typeof ({}).seen, 'a'.toUpperCase(), typeof Proxy, meta.get('caption'))",
    );
    assert.equal(next.ok && next.output.log[0], 'undefined undefined A undefined Caption');
    // Promise jobs never run (there is nothing to wait for); leaving some behind harms no later run.
    const pending = await run(
      "async function f() { await null; meta.set('caption', 'late') } f(); Promise.resolve(1).then(() => log('never'))",
    );
    assert.equal(pending.ok && pending.output.log.length, 0);
    await stillWorks();
  });

  test('a script near the memory limit runs after one that used much memory', async () => {
    const big =
      "let a = []; for (let i = 0; i < 1500; i++) a.push('y'.repeat(10000) + i); meta.set('caption', 'big')";
    for (let i = 0; i < 3; i++) {
      const result = await run(big);
      assert.equal(result.ok, true, JSON.stringify(result));
    }
  });

  test('hostile arguments to the API: throwing getters and toString, recursion through the host', async () => {
    await expectError(
      "const a = ['a']; a[1] = { toString() { throw new Error('inner') } }; meta.set('keywords', a)",
      /inner/,
    );
    await expectError(
      "const a = ['x']; Object.defineProperty(a, 0, { get() { throw new Error('getter') } }); meta.set('keywords', a)",
      /getter/,
    );
    await expectError(
      "const a = ['x']; Object.defineProperty(a, 0, { get() { for (;;) {} } }); meta.set('keywords', a)",
      /time limit/,
    );
    await expectError(
      "const o = { toString() { meta.set('caption', o); return 'x' } }; meta.set('caption', o)",
      /stack overflow|time limit/,
    );
    await expectError("meta.set('keywords', new Array(1000).fill('x'))", /more than 256 items/);
    const replaced = await run(
      "globalThis.String = () => 5; meta.set('caption', { a: 1 }); file.name = { toString: () => 'b.jpg' }",
    );
    assert.equal(
      replaced.ok && replaced.output.meta.find((m) => m.p === 'description')?.v,
      '[object Object]',
    );
    assert.equal(replaced.ok && replaced.output.file.name, 'b.jpg');
    await stillWorks();
  });

  test('file.name refuses paths', async () => {
    await expectError("file.name = '../etc/passwd'", /not a valid file name/);
    await expectError("file.name = ''", /not a valid file name/);
  });
});

// Issue 25: one team's script that runs into the hard stop holds at most its share of the pool.
describe('script sandbox pool', () => {
  const pool = createScriptSandbox(
    { timeMs: 200, memoryBytes: 32 * 1024 * 1024 },
    { threads: 2, perTeam: 1 },
  );
  after(() => pool.close());
  const loop = 'var a = []; while (true) a.push(new Array(1e5).fill(1));';

  test("another team's run is not queued behind a team's looping ones", async () => {
    // Both threads warm, so the figure below is the queue, not a thread's start.
    await Promise.all(
      [1, 2].map((team) => pool.run([{ name: 'warm.script', source: '1' }], input(), { teamId: team })),
    );
    const looping = [1, 2, 3].map(() =>
      pool.run([{ name: 'loop.script', source: loop }], input(), { teamId: 1 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const other = await pool.run([{ name: 'calm.script', source: "meta.set('caption', 'calm')" }], input(), {
      teamId: 2,
    });
    const waited = Date.now() - started;
    assert.equal(other.ok, true);
    assert.ok(waited < 1500, `the other team's run waited ${waited} ms`);
    const results = await Promise.all(looping);
    for (const result of results) {
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.error.message, /time limit of 200 ms exceeded|memory/);
    }
    // The runs whose thread had to be ended say so (the pipeline backs their project off).
    assert.ok(
      results.some((r) => 'hardStop' in r),
      'a hard stop is reported',
    );
  });
});
