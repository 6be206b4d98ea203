import path from 'node:path';
import type { AuthHandlerMiddleware, SFTPWrapper, Client as SshClient } from 'ssh2';
import SftpClient from 'ssh2-sftp-client';
import type { FilePart } from '../storage/file-parts.ts';
import {
  type DestinationClient,
  DestinationError,
  type DestinationSettings,
  type UploadOptions,
  type UploadResult,
  type UploadSource,
} from './destination.ts';
import { parallelPut } from './sftp-parallel-put.ts';
import {
  checkFileName,
  countingSource,
  isFileParts,
  localParts,
  normalizeRemoteDir,
  temporaryName,
} from './upload-helpers.ts';

/**
 * SFTP destinations through ssh2-sftp-client. Host keys are accepted without checking: the
 * product has no place to store or confirm an agency's key (a known limitation, like
 * unverified FTPS certificates). Local files (paths and parts) go with our own pipelined
 * writer, sftp-parallel-put.ts (8 writes of 256 KB in flight, as fastPut did); streams with
 * put (one write at a time).
 */

export async function connectSftp(
  settings: DestinationSettings,
  address: string,
): Promise<DestinationClient> {
  let closed = false;
  // Our own callbacks: the library's defaults print to the console on every close.
  const sftp = new SftpClient('destination', {
    error: () => {
      closed = true;
    },
    end: () => {
      closed = true;
    },
    close: () => {
      closed = true;
    },
  });
  // Servers that only offer keyboard-interactive get the password as the answer to every prompt.
  const ssh = (sftp as unknown as { client: SshClient }).client;
  ssh.on('keyboard-interactive', (_name, _instructions, _lang, prompts, finish) => {
    finish(prompts.map(() => settings.password));
  });
  try {
    await sftp.connect({
      host: address,
      port: settings.port ?? 22,
      username: settings.username,
      password: settings.password,
      tryKeyboard: true,
      authHandler: oneLoginTry(),
      readyTimeout: settings.timeoutMs ?? 30_000,
      hostVerifier: () => true,
    });
  } catch (err) {
    await sftp.end().catch(() => {});
    throw asDestinationError(err);
  }
  return new SftpDestination(sftp, () => closed);
}

/**
 * Asks the server which methods it takes ('none'), then tries the password once: as
 * 'password' when offered, else as the answer to 'keyboard-interactive'. ssh2's own order tried
 * keyboard-interactive after a refused password, so a server that waits after each failure
 * (OpenSSH with PAM: about 2 s) answered a wrong password in 6.1 s against 0.4 s for a right
 * one (issue 28). A refused password is final.
 */
function oneLoginTry(): AuthHandlerMiddleware {
  let tried = false;
  return (methodsLeft, _partialSuccess, next) => {
    // ssh2 takes false as "give up" (its types leave it out).
    const giveUp = () => (next as unknown as (method: false) => void)(false);
    if (methodsLeft === null) return next('none');
    if (tried) return giveUp();
    tried = true;
    if (methodsLeft.includes('password')) return next('password');
    if (methodsLeft.includes('keyboard-interactive')) return next('keyboard-interactive');
    return giveUp();
  };
}

function asDestinationError(err: unknown): Error {
  if (err instanceof DestinationError) return err;
  // ssh2-sftp-client prefixes its call chain ('connect: getConnection: ...'); the last part is the server's or ssh's text.
  const message = err instanceof Error ? err.message : String(err);
  return new DestinationError(message.replace(/^(?:[\w.]+: )+/, '') || message);
}

class SftpDestination implements DestinationClient {
  private ended = false;

  constructor(
    private readonly sftp: SftpClient,
    private readonly isClosed: () => boolean,
  ) {}

  get closed(): boolean {
    return this.ended || this.isClosed();
  }

  async upload(
    source: UploadSource,
    remoteDir: string,
    fileName: string,
    { tempTag, onProgress }: UploadOptions = {},
  ): Promise<UploadResult> {
    checkFileName(fileName);
    const started = Date.now();
    const dir = normalizeRemoteDir(remoteDir) || '.';
    const temp = path.posix.join(dir, temporaryName(fileName, tempTag));
    const target = path.posix.join(dir, fileName);
    try {
      // A missing local file fails before anything is made on the server.
      const local = typeof source === 'string' || isFileParts(source) ? await localParts(source) : undefined;
      if ((await this.sftp.exists(dir)) !== 'd') await this.makeDir(dir);
      let bytes: number;
      try {
        if (local) {
          bytes = await this.putLocal(local, temp, onProgress);
        } else {
          const counted = countingSource(source, onProgress);
          await this.sftp.put(counted.stream, temp);
          bytes = counted.bytes();
        }
        await this.replace(temp, target);
      } catch (err) {
        if (!this.closed) await this.sftp.delete(temp, true).catch(() => {});
        throw err;
      }
      return { bytes, ms: Date.now() - started };
    } catch (err) {
      throw asDestinationError(err);
    }
  }

  /**
   * Writes local parts to `remotePath` with parallelPut on ssh2's SFTP session, which
   * ssh2-sftp-client keeps as `sftp`. A connection that goes under the transfer fails it the
   * way the library's own calls fail (its end, close or error event), so that
   * isTransientConnectionError knows it.
   */
  private async putLocal(
    parts: readonly FilePart[],
    remotePath: string,
    onProgress?: (bytes: number) => void,
  ): Promise<number> {
    const session = (this.sftp as unknown as { sftp?: SFTPWrapper }).sftp;
    if (!session) throw new DestinationError('No SFTP connection available');
    const ssh = (this.sftp as unknown as { client: SshClient }).client;
    let unlisten = () => {};
    const dropped = new Promise<never>((_, reject) => {
      const onEnd = () => reject(new Error('Unexpected end event'));
      const onClose = () => reject(new Error('Unexpected close event'));
      const onError = (err: Error) => reject(err);
      ssh.on('end', onEnd).on('close', onClose).on('error', onError);
      unlisten = () => {
        ssh.off('end', onEnd).off('close', onClose).off('error', onError);
      };
    });
    try {
      return await Promise.race([
        // 8 writes of 256 KB in flight: 6.2 MB files to OpenSSH on loopback, 4 at a time, took
        // about half the time of fastPut's default 64 x 32 KB (bench/README.md, issue 15).
        // ssh2 splits writes above the server's limit (limits@openssh.com).
        parallelPut(session, parts, remotePath, { concurrency: 8, chunkSize: 256 * 1024, onProgress }),
        dropped,
      ]);
    } finally {
      unlisten();
    }
  }

  async test(dir: string): Promise<string> {
    try {
      const folder = normalizeRemoteDir(dir) || '.';
      // As delivery does: a missing folder is made (issue 28), so the Test proves the first file can land.
      if ((await this.sftp.exists(folder)) !== 'd') await this.makeDir(folder);
      const entries = await this.sftp.list(folder);
      return `${entries.length} entries`;
    } catch (err) {
      throw asDestinationError(err);
    }
  }

  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.sftp.end().catch(() => {});
  }

  /**
   * Creates `dir` with its parents. Deliveries on other connections may create the same folders
   * at the same time, and OpenSSH answers a mkdir of an existing folder with a bare FAILURE
   * (ssh2-sftp-client: "Bad path: … permission denied"): the first files into a new folder
   * failed their first try under load (issue 15). A folder that exists afterwards is fine; a
   * parent made meanwhile lets the next round go on.
   */
  private async makeDir(dir: string): Promise<void> {
    for (let round = 1; ; round++) {
      try {
        await this.sftp.mkdir(dir, true);
        return;
      } catch (err) {
        if ((await this.sftp.exists(dir)) === 'd') return;
        if (round >= 3) {
          if (err instanceof Error) err.message = `Folder ${dir} could not be created: ${err.message}`;
          throw err;
        }
      }
    }
  }

  /**
   * Plain SFTP rename fails when the target exists (protocol v3). OpenSSH's posix-rename
   * replaces atomically; elsewhere the old file is deleted first.
   */
  private async replace(temp: string, target: string): Promise<void> {
    try {
      await this.sftp.posixRename(temp, target);
      return;
    } catch {
      // The server lacks the extension, or refused: fall back to rename.
    }
    try {
      await this.sftp.rename(temp, target);
    } catch (err) {
      if ((await this.sftp.exists(target)) === false) throw err;
      await this.sftp.delete(target);
      await this.sftp.rename(temp, target);
    }
  }
}
