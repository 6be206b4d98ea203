import type { Readable } from 'node:stream';
import { assertAllowedHost } from '../net/outbound-guard.ts';
import { connectFtp } from './ftp-client.ts';
import { connectSftp } from './sftp-client.ts';
import type { UploadOptions } from './upload-helpers.ts';

export { DestinationError } from './upload-helpers.ts';

/**
 * One connection to a destination server (an agency's FTP, FTPS or SFTP server), logged in.
 * Uploads go to a temporary name in the target folder and are renamed when complete, so
 * receivers that watch the folder never pick up half a file. Implementations: ftp-client.ts
 * (FTP/FTPS, basic-ftp), sftp-client.ts (ssh2-sftp-client). Connections are reused through
 * pool.ts; a client that failed once should be closed, not reused.
 */

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
   * Uploads `source` (a local file path or a stream) to `remoteDir/fileName`: creates
   * `remoteDir` when missing (with parents), writes `.fileName.<tag>.part`, renames it to
   * `fileName` (replacing an existing file). `remoteDir` '' = the login folder; relative
   * paths start there, absolute ones at the server's root.
   */
  upload(
    source: string | Readable,
    remoteDir: string,
    fileName: string,
    options?: UploadOptions,
  ): Promise<UploadResult>;
  /** Enters `path` ('' = login folder) and lists it; returns a short summary like '3 entries'. Creates nothing. */
  test(path: string): Promise<string>;
  /** True once the connection is gone (closed, or failed): the pool drops it. */
  readonly closed: boolean;
  close(): Promise<void>;
}

/** Checks the host against ALLOW_PRIVATE_NETWORKS, connects and logs in. Errors carry the server's text. */
export async function createDestinationClient(settings: DestinationSettings): Promise<DestinationClient> {
  const address = await assertAllowedHost(settings.host, {
    allowPrivateNetworks: settings.allowPrivateNetworks,
  });
  return settings.protocol === 'sftp' ? connectSftp(settings, address) : connectFtp(settings, address);
}
