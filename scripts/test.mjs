#!/usr/bin/env node
// Runs the test suites with node's test runner (TypeScript through tsx):
//   unit  *.test.ts beside the code
//   int   *.int.test.ts against PGlite, and again against PostgreSQL when TEST_DATABASE_URL is set
//   static  Biome (lint and format) and the TypeScript type check of every project
//   e2e   e2e/*.e2e.test.ts in Chromium against the built web app and the server bundle
// `node scripts/test.mjs [unit|int|e2e ...]`; no argument runs all. Ends with "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const wanted = process.argv.slice(2);
const suites = wanted.length ? wanted : ['static', 'unit', 'int', 'e2e'];

function findFiles(dir, test) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findFiles(full, test));
    else if (test(entry.name)) out.push(path.relative(root, full));
  }
  return out.sort();
}

const isInt = (n) => n.endsWith('.int.test.ts');
const isE2e = (n) => n.endsWith('.e2e.test.ts');
const isUnit = (n) => (n.endsWith('.test.ts') || n.endsWith('.test.tsx')) && !isInt(n) && !isE2e(n);
const packagesDir = path.join(root, 'packages');

let passed = 0;
let failed = 0;
/** Files whose tests failed once and passed when run again alone: named at the end. */
const flaky = [];

/** Runs files in one node:test process; resolves to its counts and the files with a failure. */
function runOnce(files, env, concurrency) {
  const failedList = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-test-')), 'failed');
  const args = [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(root, 'scripts/failed-files-reporter.mjs')}`,
    '--test-reporter-destination=stderr', // it writes nothing there itself
    `--test-concurrency=${concurrency}`,
    // A file whose tests have all finished ends even if a handle it leaked (a worker thread, a
    // socket) would keep its process alive; without this one such file stalls the whole run.
    '--test-force-exit',
    ...files,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env, PHOTORELAY_FAILED_FILES: failedList },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let tail = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    });
    child.on('close', (code) => {
      const pass = Number(/ℹ pass (\d+)/.exec(tail)?.[1] ?? 0);
      const fail = Number(/ℹ fail (\d+)/.exec(tail)?.[1] ?? 0);
      const failedFiles = fs.existsSync(failedList)
        ? fs.readFileSync(failedList, 'utf8').split('\n').filter(Boolean)
        : [];
      // A runner that died without a summary still counts as a failure.
      resolve({
        pass,
        fail: code !== 0 && fail === 0 ? 1 : fail,
        failedFiles,
        died: code !== 0 && fail === 0,
      });
    });
  });
}

/**
 * Runs files; a file with a failing test runs once more on its own. The 2-core CI machine runs
 * servers, FTP and SSH daemons and Chromium side by side, so a race in a test can lose once;
 * the second run decides, and the file is named as flaky at the end so that it gets fixed.
 */
async function run(label, files, env = {}, concurrency = 2) {
  if (files.length === 0) return;
  console.log(`\n=== ${label}: ${files.length} file(s) ===`);
  const first = await runOnce(files, env, concurrency);
  passed += first.pass;
  if (first.fail === 0) return;
  const again = first.died ? [] : first.failedFiles.map((f) => path.relative(root, f));
  if (again.length === 0) {
    failed += first.fail;
    return;
  }
  console.log(`\n=== ${label}, once more: ${again.join(', ')} ===`);
  const second = await runOnce(again, env, 1);
  failed += second.fail;
  // The tests that failed first and passed now count as passed (their file's other tests
  // were counted in the first run already).
  passed += Math.max(0, first.fail - second.fail);
  const stillFailing = new Set(second.failedFiles.map((f) => path.relative(root, f)));
  for (const file of again) if (!stillFailing.has(file)) flaky.push(`${label}: ${file}`);
}

// Server processes in the int and e2e suites run the bundle that `npm start` runs; build it once
// here, so that parallel test files never build it at the same time.
if (suites.includes('int') || suites.includes('e2e')) {
  const { buildServer } = await import('./build-server.mjs');
  await buildServer();
}

/** A command that passes or fails as a whole (counted as one test). */
function check(label, command, args) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status === 0) passed += 1;
  else failed += 1;
}

for (const suite of suites) {
  if (suite === 'static') {
    check('lint (Biome)', 'npx', ['biome', 'check', '.']);
    check('type check', 'npm', ['run', 'typecheck']);
  } else if (suite === 'unit') {
    await run('unit', findFiles(packagesDir, isUnit), {}, 2);
  } else if (suite === 'int') {
    const files = findFiles(packagesDir, isInt);
    await run('integration (PGlite)', files, { PHOTORELAY_TEST_DB: 'pglite' }, 2);
    if (process.env.TEST_DATABASE_URL) {
      await run('integration (PostgreSQL)', files, { PHOTORELAY_TEST_DB: 'postgres' }, 2);
    }
  } else if (suite === 'e2e') {
    const files = findFiles(path.join(root, 'e2e'), isE2e);
    if (files.length) {
      const build = spawnSync('npm', ['run', 'build', '-w', '@photorelay/web'], {
        cwd: root,
        stdio: 'inherit',
      });
      if (build.status !== 0) {
        failed += 1;
        continue;
      }
    }
    await run('e2e (Chromium)', files, {}, 1);
  } else {
    console.error(`unknown suite ${suite}`);
    process.exit(2);
  }
}

if (flaky.length) {
  console.log(`\nFLAKY (failed once, passed when run again alone):\n  ${flaky.join('\n  ')}`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
