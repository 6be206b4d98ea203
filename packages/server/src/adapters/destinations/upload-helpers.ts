import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { checkPart, type FilePart, localFileError, readFileParts } from '../storage/file-parts.ts';
import { DestinationError, type UploadSource } from './destination.ts';

/** Helpers shared by the FTP and SFTP destination clients. */

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

/**
 * `.name.<tag>.part`. The pipeline tags it with the job, so a retry after a crash writes over
 * the half-written file it left instead of leaving it behind; untagged uploads get a random
 * tag, so that two uploads of one name into one folder never share a temporary file.
 */
export function temporaryName(fileName: string, tag?: string): string {
  const part = tag && /^[A-Za-z0-9-]{1,40}$/.test(tag) ? tag : crypto.randomBytes(4).toString('hex');
  return `.${fileName}.${part}.part`;
}

/** Whether a file name is one temporaryName made (a delivery not yet renamed into place). */
export const isTemporaryName = (name: string) => /^\..+\.[A-Za-z0-9-]{1,40}\.part$/.test(name);

/** Whether a source is file parts (not a path or a stream). */
export const isFileParts = (source: UploadSource): source is readonly FilePart[] => Array.isArray(source);

/**
 * A local source as parts (a path is its whole file), checked: every file exists and holds its
 * range. Done before anything is sent, so that a missing file leaves nothing on the server.
 */
export async function localParts(source: string | readonly FilePart[]): Promise<readonly FilePart[]> {
  const sizes = new Map<string, number>();
  const sizeOf = async (file: string) => {
    let size = sizes.get(file);
    if (size === undefined) {
      size = (await fs.promises.stat(file).catch((err) => Promise.reject(localFileError(file, err)))).size;
      sizes.set(file, size);
    }
    return size;
  };
  if (typeof source === 'string') return [{ file: source, start: 0, end: await sizeOf(source) }];
  for (const part of source) checkPart(part, await sizeOf(part.file));
  return source;
}

/** One stream of the parts' bytes, each range read in turn; read errors end it. */
export const partsStream = (parts: readonly FilePart[]): Readable =>
  Readable.from(readFileParts(parts), { objectMode: false });

/** Streams the source through a byte counter (no whole files in memory). */
export function countingSource(
  source: UploadSource,
  onProgress?: (bytes: number) => void,
): { stream: Readable; bytes: () => number } {
  let bytes = 0;
  // 1 MiB reads: reading and sending a file then takes about 40 % less CPU than with the
  // default 64 KiB (bench/README.md).
  const input =
    typeof source === 'string'
      ? fs.createReadStream(source, { highWaterMark: 1 << 20 })
      : isFileParts(source)
        ? partsStream(source)
        : source;
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
