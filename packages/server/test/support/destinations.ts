import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { isTemporaryName } from '../../src/adapters/destinations/upload-helpers.ts';
import type { IngestAccount } from '../../src/ingest/backend.ts';
import { type FtpIngest, startFtpIngest } from '../../src/ingest/ftp-server.ts';
import { type SftpIngest, startSftpIngest } from '../../src/ingest/sftp-server.ts';
import { TempDirBackend } from '../../src/ingest/temp-dir-backend.test-support.ts';
import { loadOrCreateTlsMaterial } from '../../src/ingest/tls.ts';

/**
 * Destination servers for tests and benchmarks, all on 127.0.0.1:
 * - `startFtpDestination` / `startSftpDestination`: our own FTP(+explicit FTPS) and SFTP
 *   protocol servers over a temp folder (TempDirBackend), one account `agency`/`agency-pw`.
 *   They can be stopped and started again on the same port (a destination that is down and
 *   comes back), and they note when each file was delivered (the rename of the temp file).
 * - `startVsftpd`: Debian's vsftpd as a real, independent FTP server (anonymous uploads into
 *   `incoming/`), so delivery is also proven against a server that is not our own code.
 */

export const destinationUser = { username: 'agency', password: 'agency-pw' } as const;

export const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

/** A free TCP port on 127.0.0.1 (free at the time of asking). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function portIsFree(port: number): Promise<boolean> {
  const server = net.createServer();
  const ok = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (ok) await new Promise((resolve) => server.close(resolve));
  return ok;
}

/**
 * `count` consecutive free ports for passive data connections. Random bases, so test files
 * running in parallel rarely pick the same range; every port is checked.
 */
export async function freePortRange(count: number): Promise<[number, number]> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * ((30000 - count) / count)) * count;
    let ok = true;
    for (let p = base; p < base + count && ok; p++) ok = await portIsFree(p);
    if (ok) return [base, base + count - 1];
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

/** A TempDirBackend that also notes when each file arrived under its final name. */
export class DestinationBackend extends TempDirBackend {
  /** Final path -> time (ms) of the rename that delivered it. */
  readonly deliveredAt = new Map<string, number>();

  override async rename(account: IngestAccount, from: string, to: string): Promise<void> {
    await super.rename(account, from, to);
    this.deliveredAt.set(to, Date.now());
  }
}

export interface TempDirDestination {
  protocol: 'ftp' | 'sftp';
  /** The port, kept across stop() and start(). */
  port: number;
  username: string;
  password: string;
  backend: DestinationBackend;
  /** Absolute path of `relative` (as the client sees it, from the login folder). */
  file(relative: string): string;
  /** The file's content, or null when it is not there. */
  read(relative: string): Buffer | null;
  /** Files under `dir` (relative), without the `.name.xxxx.part` temp files. */
  files(dir?: string): string[];
  /** Temp files left under `dir` (an interrupted delivery). */
  tempFiles(dir?: string): string[];
  readonly running: boolean;
  /** Closes the listener: connections are refused until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** stop() and delete the folder. */
  close(): Promise<void>;
}

const accountId = 1;
const quiet = pino({ level: 'silent' });

function walk(root: string, dir: string): string[] {
  const base = path.join(root, dir);
  if (!fs.existsSync(base)) return [];
  return (fs.readdirSync(base, { recursive: true }) as string[])
    .filter((p) => fs.statSync(path.join(base, p)).isFile())
    .map((p) => path.posix.join(dir, p.split(path.sep).join('/')))
    .sort();
}

const isTemp = (p: string) => isTemporaryName(path.posix.basename(p));

function tempDirDestination(
  protocol: 'ftp' | 'sftp',
  listen: (port: number) => Promise<{ port: number; close(): Promise<void> }>,
  backend: DestinationBackend,
  cleanup: () => void,
) {
  let server: { port: number; close(): Promise<void> } | undefined;
  const root = backend.fileOf(accountId, '');
  const destination: TempDirDestination = {
    protocol,
    port: 0,
    ...destinationUser,
    backend,
    file: (relative) => backend.fileOf(accountId, relative),
    read(relative) {
      try {
        return fs.readFileSync(backend.fileOf(accountId, relative));
      } catch {
        return null;
      }
    },
    files: (dir = '') => walk(root, dir).filter((p) => !isTemp(p)),
    tempFiles: (dir = '') => walk(root, dir).filter(isTemp),
    get running() {
      return server !== undefined;
    },
    async stop() {
      const s = server;
      server = undefined;
      await s?.close();
    },
    async start() {
      if (server) return;
      server = await listen(destination.port);
      destination.port = server.port;
    },
    async close() {
      await destination.stop();
      cleanup();
    },
  };
  return destination;
}

/**
 * Our FTP server (with explicit FTPS: AUTH TLS) over a temp folder. `port` 0 = a free one.
 * `started: false` reserves a free port but does not listen yet (a destination that is down).
 */
export async function startFtpDestination(
  options: { port?: number; started?: boolean; maxUploadBytes?: number } = {},
): Promise<TempDirDestination> {
  const backend = new DestinationBackend();
  backend.addAccount(destinationUser.username, destinationUser.password, accountId);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-dest-ftp-'));
  const tls = await loadOrCreateTlsMaterial({ dataDir: work });
  const pasvRange = await freePortRange(40);
  const destination = tempDirDestination(
    'ftp',
    (port: number): Promise<FtpIngest> =>
      startFtpIngest({
        port,
        host: '127.0.0.1',
        pasvRange,
        tls,
        maxUploadBytes: options.maxUploadBytes ?? 4 * 1024 ** 3,
        backend,
        log: quiet,
      }),
    backend,
    () => {
      backend.cleanup();
      fs.rmSync(work, { recursive: true, force: true });
    },
  );
  destination.port = options.port ?? (options.started === false ? await freePort() : 0);
  if (options.started !== false) await destination.start();
  return destination;
}

/** Our SFTP server over a temp folder. */
export async function startSftpDestination(
  options: { port?: number; started?: boolean; maxUploadBytes?: number } = {},
): Promise<TempDirDestination> {
  const backend = new DestinationBackend();
  backend.addAccount(destinationUser.username, destinationUser.password, accountId);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-dest-sftp-'));
  const destination = tempDirDestination(
    'sftp',
    (port: number): Promise<SftpIngest> =>
      startSftpIngest({
        port,
        host: '127.0.0.1',
        hostKeyDir: path.join(work, 'ssh'),
        maxUploadBytes: options.maxUploadBytes ?? 4 * 1024 ** 3,
        backend,
        log: quiet,
      }),
    backend,
    () => {
      backend.cleanup();
      fs.rmSync(work, { recursive: true, force: true });
    },
  );
  destination.port = options.port ?? (options.started === false ? await freePort() : 0);
  if (options.started !== false) await destination.start();
  return destination;
}

// ---------------------------------------------------------------------------------------------
// vsftpd

export const vsftpdBinary = '/usr/sbin/vsftpd';

export interface Vsftpd {
  port: number;
  /** Anonymous login: any password is taken. */
  username: string;
  password: string;
  /** The server's root as clients see it ('/'); only `incoming/` is writable. */
  root: string;
  pid: number;
  /** Content of `relative` (from the FTP root, e.g. 'incoming/a/b.jpg'), or null. */
  read(relative: string): Buffer | null;
  files(dir?: string): string[];
  tempFiles(dir?: string): string[];
  /** The server's stderr so far (it says "500 OOPS: ..." when it cannot start). */
  output(): string;
  stop(): Promise<void>;
}

export const vsftpdAvailable = () => {
  try {
    fs.accessSync(vsftpdBinary, fs.constants.X_OK);
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
};

function ftpUserIds(): { uid: number; gid: number } {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('ftp:'));
  if (!line)
    throw new Error('vsftpd needs the system user "ftp" (Debian creates it with the vsftpd package)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function waitForGreeting(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('vsftpd exited');
    const greeting = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      const done = (value: string) => {
        socket.destroy();
        resolve(value);
      };
      socket.setTimeout(1000, () => done(text));
      socket.on('data', (d) => {
        text += d.toString();
        if (text.includes('\n')) done(text);
      });
      socket.on('error', () => done(''));
    });
    if (greeting.startsWith('220')) return;
    if (Date.now() > deadline)
      throw new Error(`vsftpd did not greet on port ${port}: ${JSON.stringify(greeting)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Debian's vsftpd as an independent FTP server on 127.0.0.1 (needs root: it chroots and drops
 * to the `ftp` user). Anonymous login; uploads, folders, renames and deletes are allowed in
 * `incoming/` only, as on a typical agency drop box. Runs in its own process group, so stop()
 * ends the listener and every session process it forked.
 */
export async function startVsftpd(options: { port?: number } = {}): Promise<Vsftpd> {
  if (!vsftpdAvailable()) throw new Error(`${vsftpdBinary} is not installed or we are not root`);
  const { uid, gid } = ftpUserIds();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-vsftpd-'));
  const root = path.join(work, 'root');
  const empty = path.join(work, 'empty');
  const incoming = path.join(root, 'incoming');
  fs.mkdirSync(root);
  fs.mkdirSync(empty);
  fs.mkdirSync(incoming);
  // vsftpd refuses a chroot root writable by the session user; only incoming/ belongs to ftp.
  fs.chmodSync(work, 0o755);
  fs.chmodSync(root, 0o755);
  fs.chmodSync(empty, 0o755);
  fs.chownSync(incoming, uid, gid);
  fs.chmodSync(incoming, 0o755);

  const port = options.port ?? (await freePort());
  const [pasvMin, pasvMax] = await freePortRange(40);
  const config = path.join(work, 'vsftpd.conf');
  fs.writeFileSync(
    config,
    [
      'listen=YES',
      'listen_ipv6=NO',
      'listen_address=127.0.0.1',
      `listen_port=${port}`,
      'background=NO',
      'anonymous_enable=YES',
      'local_enable=NO',
      `anon_root=${root}`,
      'ftp_username=ftp',
      'no_anon_password=NO',
      'write_enable=YES',
      'anon_upload_enable=YES',
      'anon_mkdir_write_enable=YES',
      'anon_other_write_enable=YES',
      'anon_umask=022',
      'pasv_enable=YES',
      'pasv_address=127.0.0.1',
      `pasv_min_port=${pasvMin}`,
      `pasv_max_port=${pasvMax}`,
      'port_enable=NO',
      'connect_from_port_20=NO',
      'seccomp_sandbox=NO',
      // Containers often forbid new PID/network namespaces.
      'isolate=NO',
      'isolate_network=NO',
      `secure_chroot_dir=${empty}`,
      'xferlog_enable=NO',
      'syslog_enable=NO',
      'dirmessage_enable=NO',
      'max_clients=200',
      'max_per_ip=200',
      'idle_session_timeout=120',
      'data_connection_timeout=60',
      '',
    ].join('\n'),
  );
  const child = spawn(vsftpdBinary, [config], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid;
  if (pid === undefined) throw new Error('vsftpd could not be started');

  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {}
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    killGroup('SIGTERM');
    const timer = setTimeout(() => killGroup('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
    // Session processes of open connections are in the same group; make sure they are gone.
    killGroup('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  };

  try {
    await waitForGreeting(port, child, 10_000);
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}; vsftpd said: ${stderr.trim() || '(nothing)'}`);
  }

  return {
    port,
    username: 'anonymous',
    password: 'photorelay@example.com',
    root,
    pid,
    read(relative) {
      try {
        return fs.readFileSync(path.join(root, relative));
      } catch {
        return null;
      }
    },
    files: (dir = '') => walk(root, dir).filter((p) => !isTemp(p)),
    tempFiles: (dir = '') => walk(root, dir).filter(isTemp),
    output: () => stderr,
    stop,
  };
}
