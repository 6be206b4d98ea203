import net from 'node:net';
import { Client, FTPError } from 'basic-ftp';
import {
  type DestinationClient,
  DestinationError,
  type DestinationSettings,
  type UploadOptions,
  type UploadResult,
  type UploadSource,
} from './destination.ts';
import {
  checkFileName,
  countingSource,
  isFileParts,
  localParts,
  normalizeRemoteDir,
  temporaryName,
} from './upload-helpers.ts';

/**
 * FTP and FTPS destinations through basic-ftp. FTPS is explicit TLS (AUTH TLS), the usual kind
 * on port 21. Certificates are not verified: agencies commonly run self-signed ones and there
 * is no place in the product to pin one; the connection is still encrypted (a known
 * limitation: an active attacker on the path could intercept).
 * basic-ftp uses the control connection's address for passive data connections even if the
 * server announces another one, so a server cannot steer us to an internal address.
 */

export async function connectFtp(settings: DestinationSettings, address: string): Promise<DestinationClient> {
  const client = new Client(settings.timeoutMs ?? 30_000);
  try {
    await client.access({
      host: address,
      port: settings.port ?? 21,
      user: settings.username,
      password: settings.password,
      secure: settings.protocol === 'ftps',
      secureOptions: {
        rejectUnauthorized: false,
        // SNI needs the name, not the address we connect to; Node refuses an IP as SNI.
        servername: net.isIP(settings.host) ? undefined : settings.host,
      },
    });
    const home = await client.pwd();
    return new FtpDestination(client, home);
  } catch (err) {
    client.close();
    throw asDestinationError(err);
  }
}

function asDestinationError(err: unknown): Error {
  if (err instanceof DestinationError) return err;
  // FTPError texts are the server's own reply ('530 Login incorrect.'): keep them.
  if (err instanceof FTPError) return new DestinationError(err.message);
  return new DestinationError(err instanceof Error ? err.message : String(err));
}

class FtpDestination implements DestinationClient {
  /** The folder (as given to enter) the connection is in; null when unknown. */
  private current: string | null = null;

  constructor(
    private readonly client: Client,
    private readonly home: string,
  ) {}

  get closed(): boolean {
    return this.client.closed;
  }

  async upload(
    source: UploadSource,
    remoteDir: string,
    fileName: string,
    options: UploadOptions = {},
  ): Promise<UploadResult> {
    checkFileName(fileName);
    const dir = normalizeRemoteDir(remoteDir);
    const started = Date.now();
    const local = typeof source === 'string' || isFileParts(source);
    try {
      // A missing local file fails here, before a temporary file exists on the server (a read
      // error during the transfer closes basic-ftp's connection, leaving the file behind).
      if (local) await localParts(source);
      const alreadyThere = this.current === dir;
      try {
        return await this.send(source, dir, fileName, options, started);
      } catch (err) {
        // The folder may have gone since the last file (moved or deleted on the server): enter it afresh, once.
        // Paths and parts can be read again; a stream cannot.
        if (!alreadyThere || !(err instanceof FTPError) || !local || this.client.closed) throw err;
        return await this.send(source, dir, fileName, options, started);
      }
    } catch (err) {
      throw asDestinationError(err);
    }
  }

  private async send(
    source: UploadSource,
    dir: string,
    fileName: string,
    { tempTag, onProgress }: UploadOptions,
    started: number,
  ): Promise<UploadResult> {
    await this.enter(dir, true);
    const temp = temporaryName(fileName, tempTag);
    const counted = countingSource(source, onProgress);
    try {
      await this.client.uploadFrom(counted.stream, temp);
      await this.replace(temp, fileName);
    } catch (err) {
      this.current = null;
      if (!this.client.closed) await this.client.remove(temp, true).catch(() => {});
      throw err;
    }
    return { bytes: counted.bytes(), ms: Date.now() - started };
  }

  async test(path: string): Promise<string> {
    try {
      this.current = null;
      // As delivery does: a missing folder is made (issue 28), so the Test proves the first file can land.
      await this.enter(normalizeRemoteDir(path), true);
      const entries = await this.client.list();
      return `${entries.length} entries`;
    } catch (err) {
      throw asDestinationError(err);
    }
  }

  async close(): Promise<void> {
    this.client.close();
  }

  /**
   * Goes to `dir` (from the login folder), creating it (with parents) if allowed. A pooled
   * connection that is already there stays: two round trips less per file (each tens of
   * milliseconds to an agency's server across the internet).
   */
  private async enter(dir: string, create: boolean): Promise<void> {
    if (this.current === dir) return;
    this.current = null;
    await this.client.cd(this.home);
    if (dir) {
      try {
        await this.client.cd(dir);
      } catch (err) {
        if (!create || !(err instanceof FTPError)) throw err;
        await this.client.ensureDir(dir).catch((mkdirErr: unknown) => {
          // Named plainly in the job log (issue 28): which folder, not only "550 …".
          if (mkdirErr instanceof FTPError)
            mkdirErr.message = `Folder ${dir} could not be created: ${mkdirErr.message}`;
          throw mkdirErr;
        });
      }
    }
    this.current = dir;
  }

  /** Renames temp to final; servers that refuse to overwrite get the old file deleted first. */
  private async replace(temp: string, fileName: string): Promise<void> {
    try {
      await this.client.rename(temp, fileName);
    } catch (err) {
      if (!(err instanceof FTPError)) throw err;
      await this.client.remove(fileName, true);
      await this.client.rename(temp, fileName);
    }
  }
}
