import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { buildServer } from '../../../../scripts/build-server.mjs';
import { TestClient } from './client.ts';
import { freePort, freePortRange } from './destinations.ts';

/**
 * The real server as a separate process, run as `npm start` runs it (the bundle of
 * scripts/build-server.mjs, rebuilt when the sources changed, with plain node), for
 * tests and benchmarks that kill it (SIGKILL mid-transfer), restart it on the same DATA_DIR,
 * measure its memory, or need settings that differ from the test process's own server.
 *
 * Its database is its own: PGlite under DATA_DIR, or, with PHOTORELAY_TEST_DB=postgres, a new
 * database created on TEST_DATABASE_URL's server (dropped again by `close()`). Not the shared
 * test database: the job queue is a table, and the worker of any other server on it (other
 * test files run in parallel) would claim our jobs, without our files (they are under our
 * DATA_DIR) or our ALLOW_PRIVATE_NETWORKS.
 */

const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export interface ServerProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  ftpPort: number;
  sftpPort: number;
  dataDir: string;
  readonly pid: number | undefined;
  /** Its embedded database process (PGlite host), while running on PGlite. */
  readonly dbPid: number | undefined;
  readonly running: boolean;
  /** Starts (again) on the same DATA_DIR and ports; resolves when HTTP answers (ingest listens before HTTP). */
  start(): Promise<void>;
  /** Sends `signal` (default SIGKILL) and waits for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGTERM (graceful shutdown), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** Resident memory now (bytes; 0 when not running). */
  rss(): number;
  /** Peak resident memory of the current process so far (VmHWM, bytes). */
  peakRss(): number;
  /** The same two for its embedded database process (PGlite; 0 on PostgreSQL). */
  dbRss(): number;
  dbPeakRss(): number;
  /**
   * The database process's private memory (bytes): its RSS without the pages it shares with
   * the server (node's own code), which the server's RSS already counts.
   */
  dbPrivate(): number;
  /** The last 20 kB of its stdout and stderr, for failure messages. */
  output(): string;
  /** A client logged in as the seeded team's owner. */
  login(email: string, password: string): Promise<TestClient>;
}

export interface ServerProcessOptions {
  dataDir: string;
  databaseUrl?: string;
  /** More settings; these override the defaults below. */
  env?: Record<string, string>;
  /** More flags for node, e.g. ['--cpu-prof']. */
  nodeArgs?: string[];
  /** Run main.ts through tsx instead of the bundle. */
  fromSource?: boolean;
  /** Another checkout to run from source (an earlier release, for the upgrade test). */
  root?: string;
  /** How long start() waits for the server. Default 60 s. */
  startTimeoutMs?: number;
  /** `--role`; an `ingest` server is ready when its FTP port answers (it serves no HTTP). Default all. */
  role?: 'all' | 'ingest';
}

function procStatus(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  if (pid === undefined) return 0;
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Private_Clean + Private_Dirty of a process (bytes; 0 when it is gone). */
function privateMemory(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
    return (kb('Private_Clean') + kb('Private_Dirty')) * 1024;
  } catch {
    return 0;
  }
}

/** Whether `pid` runs the embedded database (the server's other child is its picture scaler). */
function isPgliteHost(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('pglite-host');
  } catch {
    return false;
  }
}

/** The child processes of `pid` (its PGlite host, and its picture scaler once a thumbnail was made). */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of stat is the parent's pid; the command (field 2) may contain spaces, so split after ')'.
      const fields = fs.readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ');
      if (Number(fields?.[1]) === pid) children.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function tcpAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Prepares a server process on `dataDir` with free ports (kept across restarts). Settings:
 * HOST 127.0.0.1, SEED_DEMO=0, ALLOW_PRIVATE_NETWORKS=1, JOB_LEASE_SECONDS=3, LOG_LEVEL=warn,
 * a free passive port range, DATABASE_URL when given; `env` overrides them. Call start().
 */
export async function serverProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const [port, ftpPort, sftpPort] = [await freePort(), await freePort(), await freePort()];
  const [pasvMin, pasvMax] = await freePortRange(50);
  const inherited = { ...process.env };
  // Nothing of the test process's own setup may leak into the server's configuration.
  for (const key of [
    'DATABASE_URL',
    'NODE_TEST_CONTEXT',
    'NODE_OPTIONS',
    'SMTP_URL',
    'PUBLIC_URL',
    'SECRET_KEY',
  ])
    delete inherited[key];
  const env: Record<string, string | undefined> = {
    ...inherited,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    FTP_PORT: String(ftpPort),
    SFTP_PORT: String(sftpPort),
    PASV_PORTS: `${pasvMin}-${pasvMax}`,
    DATA_DIR: options.dataDir,
    SEED_DEMO: '0',
    ALLOW_PRIVATE_NETWORKS: '1',
    JOB_LEASE_SECONDS: '3',
    LOG_LEVEL: 'warn',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };

  const alive = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  let dbHost: { serverPid: number; pid: number | undefined } | undefined;
  const dbHostPid = () => {
    const serverPid = handle.pid;
    if (serverPid === undefined) return undefined;
    if (dbHost?.serverPid !== serverPid || dbHost.pid === undefined)
      dbHost = { serverPid, pid: childPids(serverPid).find(isPgliteHost) };
    return dbHost.pid;
  };

  const handle: ServerProcess = {
    url,
    port,
    ftpPort,
    sftpPort,
    dataDir: options.dataDir,
    get pid() {
      return alive() ? child?.pid : undefined;
    },
    get dbPid() {
      return dbHostPid();
    },
    get running() {
      return alive();
    },
    async start() {
      if (alive()) return;
      const script = options.fromSource
        ? ['--import', 'tsx', path.join(options.root ?? repoRoot, 'packages/server/src/main.ts')]
        : [await buildServer({ onlyIfStale: true })];
      const role = options.role ?? 'all';
      const started = spawn(process.execPath, [...(options.nodeArgs ?? []), ...script, '--role', role], {
        cwd: options.root ?? repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
      started.stdout?.on('data', keep);
      started.stderr?.on('data', keep);
      const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
      for (;;) {
        if (!alive()) throw new Error(`server process exited while starting:\n${output}`);
        const answered =
          role === 'ingest'
            ? await tcpAnswers(ftpPort)
            : await fetch(`${url}/api/user/me`, { signal: AbortSignal.timeout(2000) }).then(
                () => true,
                () => false,
              );
        if (answered) return;
        if (Date.now() > deadline) {
          await handle.kill();
          throw new Error(`server process did not answer within the time limit:\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async kill(signal = 'SIGKILL') {
      if (!alive()) return;
      child?.kill(signal);
      await exited;
    },
    async stop(graceMs = 10_000) {
      if (!alive()) return;
      child?.kill('SIGTERM');
      const timer = setTimeout(() => child?.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    rss: () => procStatus(handle.pid, 'VmRSS'),
    peakRss: () => procStatus(handle.pid, 'VmHWM'),
    dbRss: () => procStatus(dbHostPid(), 'VmRSS'),
    dbPeakRss: () => procStatus(dbHostPid(), 'VmHWM'),
    dbPrivate: () => privateMemory(dbHostPid()),
    output: () => output,
    async login(email, password) {
      const client = new TestClient(url);
      const res = await client.post('/api/user/login', { email, password });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
      return client;
    },
  };
  return handle;
}
