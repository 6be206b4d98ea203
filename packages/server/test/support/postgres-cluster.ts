import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './destinations.ts';

/**
 * A PostgreSQL cluster of a test's own (initdb in a temp folder, a free port), for tests that
 * stop and restart the database under the server: never the shared server of TEST_DATABASE_URL,
 * which other test processes use. initdb and postgres refuse root: as root (CI) they run as the
 * `postgres` user. Missing binaries throw (CI installs them): such a test fails, it never skips.
 */

const run = promisify(execFile);
export const postgresBinDir = '/usr/lib/postgresql/15/bin';

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`: every session is cut off with 57P01, as in a fail-over. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its folder. */
  remove(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

async function postgresUser(command: string, args: string[]): Promise<void> {
  const file = path.join(postgresBinDir, command);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: install PostgreSQL 15 (Debian: postgresql)`);
  const [bin, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  await run(bin, argv, { timeout: 60_000 });
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-pg-'));
  const dataDir = path.join(dir, 'data');
  if (asRoot) fs.chownSync(dir, ...postgresIds());
  const port = await freePort();
  await postgresUser('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const pgCtl = (...args: string[]) =>
    postgresUser('pg_ctl', ['-D', dataDir, '-l', path.join(dir, 'log'), '-o', options, '-w', ...args]);
  let running = false;
  const cluster: PostgresCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await pgCtl('start');
      running = true;
    },
    async restart() {
      await pgCtl('restart', '-m', 'fast');
      running = true;
    },
    async stop() {
      if (!running) return;
      await pgCtl('stop', '-m', 'fast');
      running = false;
    },
    async remove() {
      await cluster.stop().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

function postgresIds(): [number, number] {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (!uid || !gid) throw new Error('there is no postgres user to run PostgreSQL as');
  return [Number(uid), Number(gid)];
}
