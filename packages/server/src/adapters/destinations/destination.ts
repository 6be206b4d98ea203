import type { Readable } from 'node:stream';
import type { FilePart } from '../storage/file-parts.ts';

/**
 * One connection to a destination server (an agency's FTP, FTPS or SFTP server), logged in.
 * Uploads go to a temporary name in the target folder and are renamed when complete, so
 * receivers that watch the folder never pick up half a file. Implementations: ftp-client.ts
 * (FTP/FTPS, basic-ftp), sftp-client.ts (ssh2-sftp-client). Connections are reused through
 * pool.ts; a client that failed once should be closed, not reused. connect.ts makes one.
 */

/** A failure with the destination server's own text (shown to users as is). */
export class DestinationError extends Error {}

/**
 * A connection that went away under the transfer (reset, closed by the server, a pooled
 * connection found dead): worth one more go at once on a new connection rather than the
 * retry delay. Refused logins, missing folders, full disks and refused connects are not.
 * ssh2-sftp-client names a session that ended under an operation by the event that came first:
 * a reset ("ECONNRESET"), or "Unexpected end event" / "Unexpected close event".
 */
export function isTransientConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return true;
  const message = err instanceof Error ? err.message : String(err);
  return /ECONNRESET|EPIPE|ECONNABORTED|socket hang up|No SFTP connection|not connected|connection (?:was )?(?:closed|lost|reset|ended)|closed (?:by (?:the )?(?:remote|server)|unexpectedly)|Client network socket disconnected|premature close|Server closed connection|read ECONNRESET|end of file|channel (?:open failure|closed)|Unexpected (?:end|close) event/i.test(
    message,
  );
}

/**
 * What an upload sends: a local file (its path), the concatenation of local file ranges in
 * order (a stamped file: its new head, then the received file's image data), or a stream.
 * Paths and parts can be read again (a retry on the same connection); a stream cannot.
 */
export type UploadSource = string | readonly FilePart[] | Readable;

export interface UploadOptions {
  /** Names the temporary file (see temporaryName); the pipeline passes the job. */
  tempTag?: string;
  onProgress?: (bytes: number) => void;
}

export type DestinationProtocol = 'ftp' | 'ftps' | 'sftp';

export interface DestinationSettings {
  protocol: DestinationProtocol;
  host: string;
  /** Default 21 for FTP/FTPS, 22 for SFTP. */
  port?: number;
  username: string;
  password: string;
  /** ALLOW_PRIVATE_NETWORKS: false = loopback and private addresses are refused. */
  allowPrivateNetworks: boolean;
  /** Connect/login and inactivity timeout. Default 30 s. */
  timeoutMs?: number;
}

export interface UploadResult {
  bytes: number;
  ms: number;
}

export interface DestinationClient {
  /**
   * Uploads `source` (a local file path, file parts or a stream) to `remoteDir/fileName`: creates
   * `remoteDir` when missing (with parents), writes `.fileName.<tag>.part`, renames it to
   * `fileName` (replacing an existing file). `remoteDir` '' = the login folder; relative
   * paths start there, absolute ones at the server's root.
   */
  upload(
    source: UploadSource,
    remoteDir: string,
    fileName: string,
    options?: UploadOptions,
  ): Promise<UploadResult>;
  /**
   * Enters `path` ('' = login folder), creating it (with parents) when missing as upload does,
   * and lists it; returns a short summary like '3 entries'.
   */
  test(path: string): Promise<string>;
  /** True once the connection is gone (closed, or failed): the pool drops it. */
  readonly closed: boolean;
  close(): Promise<void>;
}
