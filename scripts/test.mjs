#!/usr/bin/env node
// Runs the test suites with node's test runner (TypeScript through tsx):
//   unit  *.test.ts beside the code
//   int   *.int.test.ts against PGlite, and again against PostgreSQL when TEST_DATABASE_URL is set
//   static  Biome (lint and format) and the TypeScript type check of every project
//   e2e   e2e/*.e2e.test.ts in Chromium against the built web app and the server bundle
// `node scripts/test.mjs [unit|int|e2e ...]`; no argument runs all. Ends with "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
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

function run(label, files, env = {}, concurrency = 2) {
  if (files.length === 0) return Promise.resolve();
  console.log(`\n=== ${label}: ${files.length} file(s) ===`);
  const args = [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${concurrency}`,
    // A file whose tests have all finished ends even if a handle it leaked (a worker thread, a
    // socket) would keep its process alive; without this one such file stalls the whole run.
    '--test-force-exit',
    ...files,
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
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
      passed += pass;
      // A runner that died without a summary still counts as a failure.
      failed += code !== 0 && fail === 0 ? 1 : fail;
      resolve();
    });
  });
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

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
