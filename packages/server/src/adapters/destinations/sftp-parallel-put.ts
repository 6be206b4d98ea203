import fs from 'node:fs';
import type { SFTPWrapper } from 'ssh2';
import { type FilePart, localFileError } from '../storage/file-parts.ts';

/**
 * Writes local file ranges to a new remote file with several SFTP writes in flight. ssh2's
 * fastPut does this for one whole file only (it reads through node's fs by path); a stamped
 * file is two parts (its new metadata head, then the received file's image data), sent here
 * without being copied into one file first. Same algorithm as ssh2's fastXfer: `concurrency`
 * slots, each with its own buffer, each reading the next chunk and writing it at its offset;
 * the remote file is closed when all have finished.
 */

export interface ParallelPutOptions {
  /** Writes in flight. */
  concurrency: number;
  /** Bytes per write (ssh2 splits one above the server's limit into several packets). */
  chunkSize: number;
  /** Bytes the server has acknowledged so far. */
  onProgress?: (bytes: number) => void;
}

/**
 * Writes `parts` (in order, as localParts checked them) to `remotePath` (created or truncated);
 * resolves with the bytes written.
 */
export async function parallelPut(
  sftp: SFTPWrapper,
  parts: readonly FilePart[],
  remotePath: string,
  { concurrency, chunkSize, onProgress }: ParallelPutOptions,
): Promise<number> {
  // Local files first: a missing one fails before anything exists on the server.
  const source = await LocalParts.open(parts);
  try {
    const handle = await remote<Buffer>(sftp, (cb) => sftp.open(remotePath, 'w', cb));
    let failure: { error: unknown } | undefined;
    let next = 0;
    let sent = 0;
    const slot = async () => {
      let buffer: Buffer | undefined;
      try {
        while (!failure && next < source.size) {
          const position = next;
          const length = Math.min(chunkSize, source.size - position);
          next += length;
          buffer ??= takeBuffer(chunkSize);
          await source.read(buffer, length, position);
          if (failure) return;
          await remote(sftp, (cb) => sftp.write(handle, buffer as Buffer, 0, length, position, cb));
          sent += length;
          onProgress?.(sent);
        }
      } catch (error) {
        failure ??= { error };
      } finally {
        // Every write this slot made has called back: ssh2 no longer reads from the buffer.
        if (buffer) giveBack(buffer);
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(concurrency, Math.ceil(source.size / chunkSize)) }, slot),
    );
    if (failure) {
      await remote(sftp, (cb) => sftp.close(handle, cb)).catch(() => {});
      throw failure.error;
    }
    await remote(sftp, (cb) => sftp.close(handle, cb));
    return sent;
  } finally {
    await source.close();
  }
}

/**
 * Runs one SFTP request. A request made on a channel that is no longer open would never be
 * answered (ssh2 buffers it), so that fails at once, in words isTransientConnectionError knows.
 */
function remote<T = void>(
  sftp: SFTPWrapper,
  request: (cb: (err: Error | undefined | null, value: T) => void) => void,
) {
  return new Promise<T>((resolve, reject) => {
    if ((sftp as unknown as { outgoing?: { state?: string } }).outgoing?.state !== 'open') {
      reject(new Error('SFTP channel closed'));
      return;
    }
    request((err, value) => (err ? reject(err) : resolve(value)));
  });
}

/** The parts' files, open for reading; `read` fills a buffer from any offset of their concatenation. */
class LocalParts {
  private constructor(
    private readonly pieces: {
      file: string;
      handle: fs.promises.FileHandle;
      start: number;
      offset: number;
      size: number;
    }[],
    private readonly handles: fs.promises.FileHandle[],
    readonly size: number,
  ) {}

  /** Opens the parts' files; their ranges were checked by localParts (a short file fails its read). */
  static async open(parts: readonly FilePart[]): Promise<LocalParts> {
    const opened = new Map<string, fs.promises.FileHandle>();
    try {
      const pieces = [];
      let offset = 0;
      for (const { file, start, end } of parts) {
        const handle: fs.promises.FileHandle =
          opened.get(file) ??
          (await fs.promises.open(file, 'r').catch((err) => Promise.reject(localFileError(file, err))));
        opened.set(file, handle);
        if (end <= start) continue;
        pieces.push({ file, handle, start, offset, size: end - start });
        offset += end - start;
      }
      return new LocalParts(pieces, [...opened.values()], offset);
    } catch (err) {
      await Promise.all([...opened.values()].map((handle) => handle.close().catch(() => {})));
      throw err;
    }
  }

  /** Reads `length` bytes from `position` of the concatenation into the start of `buffer`. */
  async read(buffer: Buffer, length: number, position: number): Promise<void> {
    let filled = 0;
    let index = this.pieces.findIndex((p) => position < p.offset + p.size);
    while (filled < length) {
      const piece = this.pieces[index++];
      if (!piece) throw new Error(`Reading past the parts' ${this.size} bytes`);
      const from = position + filled - piece.offset;
      const want = Math.min(length - filled, piece.size - from);
      for (let got = 0; got < want; ) {
        const { bytesRead } = await piece.handle.read(
          buffer,
          filled + got,
          want - got,
          piece.start + from + got,
        );
        if (bytesRead === 0)
          throw new Error(`Local file ${piece.file} is shorter than its part (changed meanwhile?)`);
        got += bytesRead;
      }
      filled += want;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.handles.map((h) => h.close().catch(() => {})));
  }
}

/**
 * Slot buffers kept between files, up to 32 (8 MB at 256 KB: 4 connections' worth). A buffer
 * comes back only once its last write has called back (ssh2 re-reads the rest of a write it
 * split from the same buffer after the first packet's ack).
 */
const spare: Buffer[] = [];
const SPARE_MAX = 32;

function takeBuffer(size: number): Buffer {
  const index = spare.findIndex((b) => b.length === size);
  const [kept] = index >= 0 ? spare.splice(index, 1) : [];
  return kept ?? Buffer.allocUnsafeSlow(size);
}

function giveBack(buffer: Buffer): void {
  if (spare.length < SPARE_MAX) spare.push(buffer);
}
