import crypto from 'node:crypto';
import fs from 'node:fs';
import { type Readable, Transform } from 'node:stream';

/** Helpers shared by the FTP and SFTP destination clients. */

/** A failure with the destination server's own text (shown to users as is). */
export class DestinationError extends Error {}

// Control characters would end an FTP command early (CRLF injection) and make no sense in SFTP either.
const CONTROL = /\p{Cc}/u;

export function checkFileName(fileName: string): void {
  if (
    !fileName ||
    fileName === '.' ||
    fileName === '..' ||
    /[/\\]/.test(fileName) ||
    CONTROL.test(fileName)
  ) {
    throw new DestinationError(`Invalid file name: ${JSON.stringify(fileName)}`);
  }
}

/** Trims and checks a folder path from the destination settings; '' = login folder. */
export function normalizeRemoteDir(remoteDir: string): string {
  if (CONTROL.test(remoteDir)) throw new DestinationError('Invalid character in the remote path');
  const trimmed = remoteDir
    .trim()
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/');
  return trimmed.length > 1 ? trimmed.replace(/\/$/, '') : trimmed;
}

export function temporaryName(fileName: string): string {
  // Random part: two workers uploading the same name into one folder must not share a temp file.
  return `.${fileName}.${crypto.randomBytes(4).toString('hex')}.part`;
}

/** Streams the source through a byte counter (no whole files in memory). */
export function countingSource(
  source: string | Readable,
  onProgress?: (bytes: number) => void,
): { stream: Readable; bytes: () => number } {
  let bytes = 0;
  // 1 MiB reads: reading and sending a file then takes about 40 % less CPU than with the
  // default 64 KiB (bench/README.md).
  const input = typeof source === 'string' ? fs.createReadStream(source, { highWaterMark: 1 << 20 }) : source;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      onProgress?.(bytes);
      done(null, chunk);
    },
  });
  input.on('error', (err: Error) => counter.destroy(err));
  input.pipe(counter);
  return { stream: counter, bytes: () => bytes };
}
