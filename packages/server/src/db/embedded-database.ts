import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { restrictToOwner } from '../data-dir.ts';
import type { HostReply, HostRequest } from './embedded-protocol.ts';

export interface EmbeddedResult {
  rows: unknown[];
  affectedRows?: number;
}

/** The embedded PostgreSQL (PGlite) running in its own process; one connection. */
export interface EmbeddedDatabase {
  query(sql: string, params: readonly unknown[]): Promise<EmbeddedResult>;
  /** Copies the database's files, consistent, into the new folder `dir`. */
  dump(dir: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * V8 flags for the database process. Liftoff-only skips optimising PGlite's WebAssembly a second
 * time (about 65 MB less, for about 1.2× the time per statement, on a core of its own); a 1 MB
 * young generation suits a process whose JavaScript only relays messages (about 35 MB less).
 */
const hostV8Flags = ['--liftoff-only', '--max-semi-space-size=1'];

/** pglite-host beside this module: .ts when running from source (through tsx), .mjs in the bundle. */
function hostCommand(): { file: string; execArgv: string[] } {
  for (const name of ['pglite-host.mjs', 'pglite-host.ts']) {
    const file = fileURLToPath(new URL(name, import.meta.url));
    if (!fs.existsSync(file)) continue;
    const loader = name.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : [];
    return { file, execArgv: [...loader, ...hostV8Flags] };
  }
  throw new Error('pglite-host is missing beside the server code');
}

function spawnHost(dataDir: string, args: string[] = []): ChildProcess {
  const { file, execArgv } = hostCommand();
  return fork(file, [dataDir, ...args], { execArgv, serialization: 'advanced' });
}

/** Creates the cluster in a short-lived process (initdb's memory peak stays there). */
async function initCluster(dataDir: string): Promise<void> {
  const init = spawnHost(dataDir, ['--init']);
  let fatal = '';
  init.on('message', (reply: HostReply) => {
    if (reply.kind === 'fatal') fatal = reply.message;
  });
  const code = await new Promise<number | null>((resolve) => init.on('exit', resolve));
  if (code !== 0) throw new Error(`creating the database in ${dataDir} failed: ${fatal || `exit ${code}`}`);
}

/** Puts a copy made by `dump()` in place as the database (an empty data directory only). */
export function restoreEmbeddedDatabase(dataDir: string, dumpDir: string): void {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) throw new Error(`${dataDir} already holds a database`);
  if (!fs.existsSync(path.join(dumpDir, 'PG_VERSION'))) throw new Error(`${dumpDir} holds no database copy`);
  fs.cpSync(dumpDir, dataDir, { recursive: true });
  restrictToOwner(dataDir);
}

export async function startEmbeddedDatabase(
  dataDir: string,
  options: { onUnexpectedExit?: (code: number | null) => void } = {},
): Promise<EmbeddedDatabase> {
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await initCluster(dataDir);
  restrictToOwner(dataDir);
  const host = spawnHost(dataDir);
  const channel = host.channel;
  const pending = new Map<number, { resolve(r: EmbeddedResult): void; reject(e: Error): void }>();
  let nextId = 1;
  let closing = false;
  let exited: Error | undefined;

  // An idle connection must not keep a script or test process alive; a pending query must.
  host.unref();
  const holdOpen = () => (pending.size > 0 ? channel?.ref() : channel?.unref());

  const ready = new Promise<void>((resolve, reject) => {
    host.on('message', (reply: HostReply) => {
      if (reply.kind === 'ready') return resolve();
      if (reply.kind === 'fatal') return reject(new Error(`embedded database: ${reply.message}`));
      const waiter = pending.get(reply.id);
      if (!waiter) return;
      pending.delete(reply.id);
      holdOpen();
      if (reply.kind === 'result') waiter.resolve(reply);
      else waiter.reject(Object.assign(new Error(reply.message), reply.fields));
    });
    host.on('exit', (code) => {
      exited = new Error(`the embedded database process has stopped (exit ${code})`);
      reject(exited);
      for (const waiter of pending.values()) waiter.reject(exited);
      pending.clear();
      if (!closing) options.onUnexpectedExit?.(code);
    });
  });
  await ready;
  holdOpen();

  const request = (message: HostRequest & { id: number }): Promise<EmbeddedResult> => {
    if (exited) return Promise.reject(exited);
    return new Promise((resolve, reject) => {
      pending.set(message.id, { resolve, reject });
      holdOpen();
      host.send(message);
    });
  };

  return {
    query: (sql, params) => request({ kind: 'query', id: nextId++, sql, params: [...params] }),
    async dump(dir) {
      await request({ kind: 'dump', id: nextId++, dir: path.resolve(dir) });
    },
    async close() {
      if (exited) return;
      closing = true;
      const gone = new Promise((resolve) => host.once('exit', resolve));
      host.ref(); // until its exit event, which comes after the channel has closed
      host.send({ kind: 'close' } satisfies HostRequest);
      await gone;
    },
  };
}
