import type { Readable } from 'node:stream';

/**
 * What the FTP and SFTP ingest servers need from the rest of the product. The servers only
 * speak protocol: accounts, storage, the listing and the connection log live behind this
 * interface (implemented by the lead with the database and the blob store).
 *
 * Paths: every `relativePath` / `relativeDir` handed to the backend is already normalized by
 * `virtual-path.ts`: inside the account's root, '/'-separated, no leading or trailing '/',
 * no '.', '..', empty or control-character segments. The root itself is ''.
 * Example: 'DCIM/100CANON/IMG_0001.JPG'.
 */

export type IngestProtocol = 'ftp' | 'ftps' | 'sftp';

export interface IngestAccount {
  accountId: number;
  projectId: number;
  /** The project's team: passive ports are shared out per team (ftp-passive.ts). */
  teamId: number;
  username: string;
}

export interface IngestEntry {
  name: string;
  size: number;
  mtime: Date;
  isDirectory: boolean;
}

export interface IngestStat {
  size: number;
  mtime: Date;
  isDirectory: boolean;
}

export interface ConnectionLogEntry {
  at: Date;
  kind: 'command' | 'reply' | 'error' | 'info';
  text: string;
}

export interface IngestSessionInfo {
  protocol: IngestProtocol;
  remoteAddress: string;
  /** True from the start for implicit FTPS and SFTP; explicit FTPS calls `tlsStarted()` later. */
  tls: boolean;
  startedAt: Date;
}

/**
 * One FTP/SFTP connection in the project's connection log. The servers call these in order:
 * any number of `log`/`login`/`tlsStarted`, then `end` exactly once. Passwords never appear
 * (PASS is logged as 'PASS ****'). Calls must not throw and should not block: buffer and write
 * in the background (entries per session are already capped by the servers).
 */
export interface IngestSession {
  log(entry: ConnectionLogEntry): void;
  /** Each login attempt; `account` null = refused. `reason` e.g. 'wrong password', 'blocked'. */
  login(result: { username: string; account: IngestAccount | null; reason?: string }): void;
  /** Explicit FTPS: the control connection switched to TLS (AUTH TLS); protocol becomes 'ftps'. */
  tlsStarted(): void;
  end(): void;
}

export interface UploadInfo {
  protocol: IngestProtocol;
  remoteAddress: string;
}

export interface IngestBackend {
  /** Project account login; null = wrong user or password. Throttling is done by the servers. */
  authenticate(username: string, password: string, remoteAddress: string): Promise<IngestAccount | null>;

  /**
   * Whether an account has this user name (asked after a failed login: failures on names no
   * account has are throttled apart). Without it every name counts as an account's.
   */
  accountExists?(username: string): Promise<boolean>;

  /**
   * Streams one upload to storage. Must resolve only once the content is flushed to disk and the
   * upload (with its jobs) is recorded in one transaction: the client gets its success reply
   * (FTP 226, SFTP OK on CLOSE) only after that.
   * `data` emits 'error' when the upload is aborted (client vanished, ABOR, size limit,
   * timeout): then nothing may be recorded, the partial content must be discarded and the
   * promise must reject. Never called for zero-byte uploads (the servers drop those; the client
   * still gets a success reply, and nothing is forwarded).
   * Rejecting gives the client an error reply (the error text goes to the log, not the client).
   */
  storeUpload(
    account: IngestAccount,
    relativePath: string,
    data: Readable,
    info: UploadInfo,
  ): Promise<{ bytes: number }>;

  /**
   * Why no upload can be taken now (the data disk is full), as a text for the client; null when
   * uploads are welcome. Asked before each upload starts (FTP STOR, SFTP OPEN), so it must be cheap.
   */
  uploadsRefused?(): string | null;

  /** Entries of a folder (recent uploads and folders made); [] for an unknown folder. */
  list(account: IngestAccount, relativeDir: string): Promise<IngestEntry[]>;

  /** Creates the folder and its parents; an existing folder is fine. */
  makeDirectory(account: IngestAccount, relativeDir: string): Promise<void>;

  /** null = no such file or folder. stat('') is the root and should answer a folder. */
  stat(account: IngestAccount, relativePath: string): Promise<IngestStat | null>;

  /** Deletes a file not yet delivered; otherwise throws an IngestUserError (its text goes to the client). */
  remove(account: IngestAccount, relativePath: string): Promise<void>;

  /** Renames a file not yet delivered; otherwise throws an IngestUserError. Other errors show as a generic failure. */
  rename(account: IngestAccount, from: string, to: string): Promise<void>;

  /** Opens the connection-log entry of a new FTP/SFTP connection (before login). */
  sessionStarted(info: IngestSessionInfo): IngestSession;
}

/** An error whose message may be shown to the FTP/SFTP client as is (e.g. 'File already delivered'). */
export class IngestUserError extends Error {}

/** What the FTP/SFTP client is told while the data disk is full (FTP code 452, RFC 959). */
export const diskFullMessage = 'Insufficient storage space: the server disk is full; try again later';

/** Caps the entries one connection writes to the log, so one busy camera cannot flood it. */
export function cappedSession(session: IngestSession, maxEntries = 2000): IngestSession {
  let count = 0;
  return {
    log(entry) {
      count++;
      if (count < maxEntries) session.log(entry);
      else if (count === maxEntries)
        session.log({ at: entry.at, kind: 'info', text: 'log of this connection truncated' });
    },
    login: (result) => session.login(result),
    tlsStarted: () => session.tlsStarted(),
    end: () => session.end(),
  };
}

/**
 * Text that PostgreSQL's text and jsonb columns accept: no NUL and no lone surrogate (hostile
 * clients send both; one refused insert would lose a connection's whole log).
 */
export function storableText(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what must go
      .replace(/\u0000/g, '\ufffd')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
  );
}
