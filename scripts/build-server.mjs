#!/usr/bin/env node
// Bundles the server for plain node: packages/server/dist/main.mjs (the server) and
// packages/server/dist/pglite-host.mjs (its embedded database process). Our workspace packages
// are bundled in; npm packages stay external and load from node_modules. Running the bundle
// instead of TypeScript through tsx saves tsx's compiler thread and caches (about 70 MB).
//   node scripts/build-server.mjs          build
//   import { buildServer } ...; await buildServer({ onlyIfStale: true })
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'packages/server');
export const serverDist = path.join(server, 'dist');
export const serverEntry = path.join(serverDist, 'main.mjs');
const sourceDirs = ['packages/server/src', 'packages/contract/src', 'packages/xmp/src'].map((d) =>
  path.join(root, d),
);

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function isStale() {
  const builtAt = fs.existsSync(serverEntry) ? fs.statSync(serverEntry).mtimeMs : 0;
  const sources = Math.max(
    ...sourceDirs.map(newestMtime),
    fs.statSync(path.join(server, 'package.json')).mtimeMs,
  );
  return sources > builtAt;
}

export async function buildServer({ onlyIfStale = false } = {}) {
  if (onlyIfStale && !isStale()) return serverEntry;
  const esbuild = await import('esbuild');
  const { dependencies } = JSON.parse(fs.readFileSync(path.join(server, 'package.json'), 'utf8'));
  const external = Object.keys(dependencies).filter((name) => !name.startsWith('@photorelay/'));
  await esbuild.build({
    entryPoints: {
      main: path.join(server, 'src/main.ts'),
      'pglite-host': path.join(server, 'src/db/pglite-host.ts'),
      // The script sandbox's worker thread (adapters/script-sandbox/sandbox.ts loads it by this name).
      'script-sandbox-thread': path.join(server, 'src/adapters/script-sandbox/sandbox-thread.ts'),
      // The calendar reader's thread (adapters/ics/read-in-thread.ts loads it by this name).
      'ics-read-thread': path.join(server, 'src/adapters/ics/read-thread.ts'),
      // The metadata engine's stamp thread (packages/xmp/src/stamp-threads.ts loads it by this name).
      'stamp-thread': path.join(root, 'packages/xmp/src/stamp-thread.ts'),
      // The picture scaler's process (adapters/pictures/picture-scaler.ts forks it by this name).
      'picture-scaler-process': path.join(server, 'src/adapters/pictures/picture-scaler-process.ts'),
    },
    outdir: serverDist,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Sub-paths (@fastify/static, exiftool-vendored for tests) stay external too.
    external: [...external, '@fastify/*', 'exiftool-vendored'],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return serverEntry;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  await buildServer();
  console.log(
    `server bundle: ${path.relative(root, serverEntry)} (${Math.round(performance.now() - started)} ms)`,
  );
}
