#!/usr/bin/env node
// `npm run typecheck`: tsc over every TypeScript project: the workspaces, e2e and each benchmark
// folder with a tsconfig.json (a new benchmark is checked without being listed anywhere).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const benches = fs
  .readdirSync(path.join(root, 'bench'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(root, 'bench', d.name, 'tsconfig.json')))
  .map((d) => `bench/${d.name}`)
  .sort();
const projects = ['packages/contract', 'packages/xmp', 'packages/server', 'packages/web', 'e2e', ...benches];
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
let failed = 0;
for (const project of projects) {
  const result = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`typecheck failed: ${project}`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
