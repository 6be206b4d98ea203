import path from 'node:path';
import { Readable } from 'node:stream';
import { Client as FtpClient } from 'basic-ftp';

/**
 * A camera's upload: logs in to a project's FTP account on 127.0.0.1:`port` (explicit FTPS with
 * `secure`), makes the folders of `remotePath` and stores `data` there.
 */
export async function ftpUpload(
  port: number | undefined,
  account: { username: string; password: string } | undefined,
  remotePath: string,
  data: Buffer,
  secure = false,
) {
  const client = new FtpClient(10_000);
  try {
    await client.access({
      host: '127.0.0.1',
      port,
      user: account?.username,
      password: account?.password,
      secure,
      secureOptions: { rejectUnauthorized: false },
    });
    const dir = path.posix.dirname(remotePath);
    if (dir !== '.') await client.ensureDir(dir);
    await client.uploadFrom(Readable.from([data]), path.posix.basename(remotePath));
  } finally {
    client.close();
  }
}
