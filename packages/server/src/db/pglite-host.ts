// The embedded database process: PGlite (PostgreSQL in WebAssembly) serving one parent over
// Node's IPC channel. It runs apart from the server so that SQL does not take turns with FTP
// and HTTP on the server's event loop (it gets a core of its own), and so that PGlite's
// WebAssembly memory is bounded by its own settings rather than added to the server's.
//
//   node pglite-host.(ts|mjs) <dataDir>          serve queries until the parent closes or leaves
//   node pglite-host.(ts|mjs) <dataDir> --init   create the cluster (initdb) and exit
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { HostReply, HostRequest } from './embedded-protocol.ts';
import { preparedStatements } from './pglite-statements.ts';

const [dataDir, mode] = process.argv.slice(2);
const pidFile = dataDir ? path.join(dataDir, 'photorelay-host.pid') : '';

/**
 * PGlite's defaults minus `-F` (fsync off): an acknowledged upload must survive a power loss,
 * not only a killed process. A small buffer pool keeps the process's memory modest.
 */
function startParams(): string[] {
  const defaults = (PGlite as unknown as { defaultStartParams?: string[] }).defaultStartParams ?? [
    '--single',
  ];
  return [...defaults.filter((p) => p !== '-F'), '-c', 'shared_buffers=16MB'];
}

function send(message: HostReply): void {
  process.send?.(message);
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A parent killed with SIGKILL leaves its host exiting on its own; a restarted server must not
 * open the same files before that host is gone (PGlite has no lock between processes).
 */
async function waitForPreviousHost(): Promise<void> {
  const previous = Number.parseInt(fs.readFileSync(pidFile, 'utf8'), 10);
  for (let waited = 0; previous && previous !== process.pid && isAlive(previous); waited += 50) {
    if (waited > 30_000) throw new Error(`database in ${dataDir} is still used by process ${previous}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main(): Promise<void> {
  if (!dataDir) throw new Error('usage: pglite-host <dataDir> [--init]');
  fs.mkdirSync(dataDir, { recursive: true });
  if (fs.existsSync(pidFile)) await waitForPreviousHost();
  fs.writeFileSync(pidFile, String(process.pid));

  const pglite = await PGlite.create(dataDir, {
    // Counters are bigint in SQL but stay far below 2^53: read them as numbers, as pg does.
    parsers: { [types.INT8]: (value: string) => Number.parseInt(value, 10) },
    startParams: startParams(),
    // Trigram indexes for the job log's file-name search (migration 0037).
    extensions: { pg_trgm },
  });
  if (mode === '--init') {
    // initdb leaves the WebAssembly memory at its high-water mark for good; serving starts afresh.
    await pglite.close();
    fs.rmSync(pidFile, { force: true });
    process.exit(0);
  }

  // The parent decides when to stop; a terminal's Ctrl-C reaches the whole process group.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
  // Parent gone (even by SIGKILL): leave at once. Committed work is on disk (fsync is on);
  // anything uncommitted is rolled back at the next start, as after a crash.
  process.on('disconnect', () => process.exit(0));

  // One request at a time, in arrival order: the parent's driver sends queries without waiting
  // for answers (pglite-dialect.ts) and keeps a transaction's statements together.
  let chain = Promise.resolve();
  const query = preparedStatements(pglite);
  process.on('message', (request: HostRequest) => {
    chain = chain.then(() => handle(pglite, query, request));
  });
  send({ kind: 'ready' });
}

async function handle(
  pglite: PGlite,
  query: ReturnType<typeof preparedStatements>,
  request: HostRequest,
): Promise<void> {
  if (request.kind === 'close') {
    await pglite.close();
    fs.rmSync(pidFile, { force: true });
    process.exit(0);
  }
  if (request.kind === 'dump') {
    try {
      // No statement runs while the files are copied (requests are handled one at a time), and
      // after the checkpoint every committed change is in the data files: the copy is a cluster
      // as a clean stop would leave it. A native copy takes a fraction of a second for a few
      // hundred MB; PGlite's own dumpDataDir builds a tar in WebAssembly memory and held
      // uploads for over 10 s in the backup test.
      await pglite.exec('checkpoint');
      fs.cpSync(dataDir, request.dir, {
        recursive: true,
        filter: (source) => path.basename(source) !== path.basename(pidFile),
      });
      send({ kind: 'result', id: request.id, rows: [] });
    } catch (error) {
      send({ kind: 'error', id: request.id, message: String((error as Error).message), fields: {} });
    }
    return;
  }
  try {
    // Without parameters use the simple protocol, which (like pg) accepts several statements.
    const result =
      request.params.length === 0
        ? ((await pglite.exec(request.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
        : await query(request.sql, request.params);
    send({ kind: 'result', id: request.id, rows: result.rows, affectedRows: result.affectedRows });
  } catch (error) {
    const { message, ...fields } = error as Error & Record<string, unknown>;
    const plain = Object.fromEntries(
      Object.entries(fields).filter(([, v]) => ['string', 'number'].includes(typeof v)),
    );
    send({ kind: 'error', id: request.id, message: String(message), fields: plain });
  }
}

main().catch((error: Error) => {
  send({ kind: 'fatal', message: error.message });
  process.exitCode = 1;
  process.disconnect?.();
});
