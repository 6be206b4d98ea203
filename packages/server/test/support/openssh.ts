import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitForFirstLine } from './daemon.ts';
import { freePort } from './destinations.ts';

/**
 * Debian's OpenSSH server as an independent SFTP destination on 127.0.0.1 (issue 15: SFTP
 * deliveries are measured and tested against the server agencies actually run). It needs root:
 * logins are checked against a system user (`photorelay-sftp`, made here when missing) whose
 * password is set for the run; SFTP only (internal-sftp), starting in a temp folder.
 */

export const sshdBinary = '/usr/sbin/sshd';
const user = 'photorelay-sftp';

export const sshdAvailable = () => {
  try {
    fs.accessSync(sshdBinary, fs.constants.X_OK);
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
};

export interface OpenSshd {
  port: number;
  username: string;
  password: string;
  /** The folder SFTP sessions start in (absolute, also as the client sees it). */
  root: string;
  /** The listener's process id (sessions are its descendants). */
  pid: number | undefined;
  /** sshd's log so far (-e: to stderr). */
  output(): string;
  /** Kills the session processes (every open connection drops; the listener stays). */
  dropConnections(): void;
  stop(): Promise<void>;
}

function ensureUser(password: string): { uid: number; gid: number } {
  const find = () =>
    fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${user}:`));
  if (!find()) execFileSync('useradd', ['-M', '-d', '/nonexistent', '-s', '/usr/sbin/nologin', user]);
  execFileSync('chpasswd', { input: `${user}:${password}\n` });
  const [, , uid, gid] = (find() ?? '').split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Starts sshd with its own config and host key; `sshdOptions` are extra config lines. */
export async function startOpenSshd(
  options: { port?: number; sshdOptions?: string[] } = {},
): Promise<OpenSshd> {
  if (!sshdAvailable()) throw new Error(`${sshdBinary} is not installed or we are not root`);
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const { uid, gid } = ensureUser(password);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-sshd-'));
  fs.chmodSync(work, 0o755);
  const root = path.join(work, 'root');
  fs.mkdirSync(root);
  fs.chownSync(root, uid, gid);
  fs.mkdirSync('/run/sshd', { recursive: true });
  const hostKey = path.join(work, 'host_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  const port = options.port ?? (await freePort());
  const config = path.join(work, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      // sshd takes a keyword's first value: the caller's lines come first.
      ...(options.sshdOptions ?? []),
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(work, 'sshd.pid')}`,
      'UsePAM no',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication no',
      'PermitRootLogin no',
      `AllowUsers ${user}`,
      'StrictModes no',
      'Subsystem sftp internal-sftp',
      `ForceCommand internal-sftp -d ${root}`,
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  const child = spawn(sshdBinary, ['-D', '-e', '-f', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let log = '';
  child.stderr?.on('data', (d) => {
    log += d.toString();
  });
  try {
    await waitForFirstLine('sshd', port, child, 'SSH-2.0-', 10_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}: ${log}`);
  }
  return {
    port,
    username: user,
    password,
    root,
    pid: child.pid,
    output: () => log,
    dropConnections() {
      const children = (pid: number): number[] => {
        try {
          return fs
            .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
            .split(' ')
            .filter(Boolean)
            .map(Number);
        } catch {
          return [];
        }
      };
      // Each session is a privileged monitor with its unprivileged child: both go.
      const descendants = (pid: number): number[] => children(pid).flatMap((c) => [c, ...descendants(c)]);
      for (const session of child.pid ? descendants(child.pid) : []) {
        try {
          process.kill(session, 'SIGKILL');
        } catch {
          // gone already
        }
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // Its own process group: the listener and every session process it forked.
        if (child.pid) process.kill(-child.pid, 'SIGTERM');
        await exited;
      }
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
