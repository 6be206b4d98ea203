#!/usr/bin/env node
// `npm start`: builds the web app and the server bundle when their sources are newer than the
// builds, then runs the server with plain node.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'packages/web');
const builtAt = (() => {
  try {
    return fs.statSync(path.join(web, 'dist/index.html')).mtimeMs;
  } catch {
    return 0;
  }
})();

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sources = Math.max(newestSource(web), newestSource(path.join(root, 'packages/contract')));
if (sources > builtAt) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@photorelay/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const { buildServer } = await import('./build-server.mjs');
const entry = await buildServer({ onlyIfStale: true });

const server = spawn(process.execPath, [entry, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
