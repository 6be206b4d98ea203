import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitForFirstLine } from './daemon.ts';
import { freePort, freePortRange, isTemp, walk } from './destinations.ts';

/**
 * Debian's vsftpd as a real, independent FTP server (anonymous uploads into `incoming/`), so
 * delivery is also proven against a server that is not our own code.
 */

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
    await waitForFirstLine('vsftpd', port, child, '220', 10_000);
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
