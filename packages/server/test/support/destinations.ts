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
import { loadOrCreateTlsMaterial } from '../../src/ingest/tls.ts';
import { TempDirBackend } from './temp-dir-backend.ts';

/**
 * Destination servers for tests and benchmarks, all on 127.0.0.1:
 * - `startFtpDestination` / `startSftpDestination`: our own FTP(+explicit FTPS) and SFTP
 *   protocol servers over a temp folder (TempDirBackend), one account `agency`/`agency-pw`.
 *   They can be stopped and started again on the same port (a destination that is down and
 *   comes back), and they note when each file was delivered (the rename of the temp file).
 * Debian's vsftpd as an independent destination is in vsftpd.ts.
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

export function walk(root: string, dir: string): string[] {
  const base = path.join(root, dir);
  if (!fs.existsSync(base)) return [];
  return (fs.readdirSync(base, { recursive: true }) as string[])
    .filter((p) => fs.statSync(path.join(base, p)).isFile())
    .map((p) => path.posix.join(dir, p.split(path.sep).join('/')))
    .sort();
}

export const isTemp = (p: string) => isTemporaryName(path.posix.basename(p));

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
