// The file operations of stamping (stamp-file.ts, stamp-head.ts): the input read in blocks, with a
// small head block, through the thread pool (the caller's thread) or synchronously (a stamp
// thread); sinks that write to a file, the image data moved by the kernel where it can be
// (copy_file_range, kernel-copy.ts); block buffers kept between files.
import type { Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, unlinkSync, writeSync, writevSync } from 'node:fs';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import type { ByteSink } from './byte-stream.ts';
import { copyRange } from './kernel-copy.ts';
import { findTrailer, TRAILER_WINDOW, type Trailer } from './trailers.ts';

/**
 * Enough for the metadata of most files (the IPTC reference head is 38 KB, an APP1 at most 64 KB);
 * a larger head is read on in data blocks. The image data is copied by the kernel from its first
 * byte where it can be (what the head block held of it is read again), else in blocks.
 */
export const HEAD_BLOCK = 64 * 1024;
/**
 * Data blocks: large through the thread pool (each block is a round trip), small with
 * synchronous reads, where a block that stays in the CPU's cache between its read and its write
 * makes the copy cheaper (5 and 20 MB on tmpfs: 1.15x copyFile's CPU time with 128 KB blocks,
 * 1.21x with 1 MB; bench/README.md "Stamping itself").
 */
const ASYNC_DATA_BLOCK = 1024 * 1024;
const SYNC_DATA_BLOCK = 128 * 1024;
const SMALL_WRITE = 256 * 1024;
/** Smaller pieces are gathered by the synchronous sink (every segment is, no data block is). */
const SMALL_PIECE = 64 * 1024;

/**
 * Block buffers kept between files (three per file), by size: a fresh large buffer costs a page
 * fault per 4 KB on first use. Enough for two files at a time.
 */
const spare = new Map<number, Buffer[]>();
const SPARE_MAX = 6;
export const takeBuffer = (size: number): Buffer => spare.get(size)?.pop() ?? Buffer.allocUnsafe(size);
export function giveBack(buffers: readonly Buffer[]): void {
  for (const buffer of buffers) {
    const kept = spare.get(buffer.length) ?? [];
    spare.set(buffer.length, kept);
    if (kept.length < SPARE_MAX) kept.push(buffer);
  }
}

/**
 * The file in blocks: the head block into buffers[0], then the image data in buffers[1] and
 * buffers[2] in turn. Reuse is safe: the engine copies what it keeps of a block, and a buffer is
 * read into again only when the consumer asks for the block after the next one, by which time the
 * sink has written the block that was in it (a full block is never left pending, see FileSink).
 */
const blockBuffer = (buffers: readonly Buffer[], index: number): Buffer =>
  buffers[index === 0 ? 0 : 1 + (index % 2)] as Buffer;

/** Reads still in flight when the consumer stopped: they must end before their buffers are reused. */
interface InFlight {
  read?: Promise<unknown>;
}

/** Through the thread pool, the next block always already being read. */
async function* blocks(
  handle: FileHandle,
  size: number,
  buffers: readonly Buffer[],
  inFlight: InFlight,
): AsyncGenerator<Buffer> {
  const readBlock = async (position: number, index: number): Promise<Buffer> => {
    const buffer = blockBuffer(buffers, index);
    const length = Math.min(index === 0 ? HEAD_BLOCK : ASYNC_DATA_BLOCK, size - position);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  };
  let position = 0;
  let index = 0;
  let next: Promise<Buffer> | undefined = size > 0 ? readBlock(0, index) : undefined;
  while (next) {
    const block = await next;
    if (block.length === 0) return;
    position += block.length;
    index += 1;
    next = position < size ? readBlock(position, index) : undefined;
    // A read that fails while nobody waits for it must not go unhandled.
    inFlight.read = next?.catch(() => {});
    yield block;
  }
}

/** Read when asked for, synchronously. */
function* syncBlocks(fd: number, size: number, buffers: readonly Buffer[]): Generator<Buffer> {
  for (let position = 0, index = 0; position < size; index++) {
    const buffer = blockBuffer(buffers, index);
    const length = Math.min(index === 0 ? HEAD_BLOCK : SYNC_DATA_BLOCK, size - position);
    // A block is read full (the sink relies on it), unless the file ends first.
    let bytesRead = 0;
    for (let n = 1; n > 0 && bytesRead < length; bytesRead += n)
      n = readSync(fd, buffer, bytesRead, length - bytesRead, position + bytesRead);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

export interface CountingSink extends ByteSink {
  size: number;
  /** Writes what is still gathered. */
  flush(): Promise<void> | undefined;
}

/** Writes to a file handle; small pieces (segments) are gathered and go out with the next large one. */
class FileSink implements CountingSink {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  size = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly hash?: Hash,
  ) {}

  write(bytes: Buffer): Promise<void> | undefined {
    this.hash?.update(bytes);
    this.size += bytes.length;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    return this.pendingBytes < SMALL_WRITE ? undefined : this.flush();
  }

  async flush(): Promise<void> {
    const parts = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (parts.length > 0) await this.handle.writev(parts);
  }
}

/**
 * Writes synchronously. The head's small pieces (segments) are gathered and go out in one
 * writev with the next large piece; a large piece (image data) is written at once, because its
 * block's buffer is read into again two blocks later. A small piece of image data is the file's
 * last block (blocks are read full), so nothing is read into its buffer before the final flush.
 */
class SyncFileSink implements CountingSink {
  private pending: Buffer[] = [];
  size = 0;

  constructor(
    private readonly fd: number,
    private readonly hash?: Hash,
    /** The input, when the rest of it may be copied by the kernel. */
    private readonly input?: { fd: number; size: number },
  ) {}

  copyRest(position: number, end?: number): boolean {
    if (!this.input || this.hash || end !== undefined) return false;
    this.flush();
    const copied = copyRange(this.input.fd, position, this.fd, this.input.size - position);
    if (copied === undefined) return false;
    this.size += copied;
    return true;
  }

  write(bytes: Buffer): undefined {
    this.hash?.update(bytes);
    this.size += bytes.length;
    this.pending.push(bytes);
    if (bytes.length >= SMALL_PIECE) this.flush();
    return undefined;
  }

  flush(): undefined {
    const parts = this.pending;
    this.pending = [];
    let written = parts.length > 1 ? writevSync(this.fd, parts) : 0;
    // What a short writev left, piece by piece.
    for (const part of parts) {
      const skip = Math.min(written, part.length);
      written -= skip;
      for (let done = skip; done < part.length; ) done += writeSync(this.fd, part, done, part.length - done);
    }
    return undefined;
  }
}

/** The file operations of one way of stamping: through the thread pool, or synchronous on a stamp thread. */
export interface FileIo<F> {
  dataBlock: number;
  open(path: string, flags: 'r' | 'w'): F | Promise<F>;
  size(file: F): number | Promise<number>;
  /** Bytes read. */
  read(file: F, buffer: Buffer, length: number, position: number): number | Promise<number>;
  blocks(file: F, size: number, buffers: readonly Buffer[]): AsyncIterable<Buffer> | Iterable<Buffer>;
  /** `input` is given when the sink may copy the rest of it by the kernel. */
  sink(file: F, hash?: Hash, input?: { file: F; size: number }): CountingSink;
  close(file: F): unknown;
  unlink(path: string): unknown;
  /** Resolves once no read started by blocks() is in flight (its buffers may be reused). */
  settled(): unknown;
}

export const asyncIo = (): FileIo<FileHandle> => {
  const inFlight: InFlight = {};
  return {
    dataBlock: ASYNC_DATA_BLOCK,
    open: (path, flags) => open(path, flags),
    size: async (handle) => (await handle.stat()).size,
    read: async (handle, buffer, length, position) =>
      (await handle.read(buffer, 0, length, position)).bytesRead,
    blocks: (handle, size, buffers) => blocks(handle, size, buffers, inFlight),
    sink: (handle, hash) => new FileSink(handle, hash),
    close: (handle) => handle.close(),
    unlink: (path) => unlink(path),
    settled: () => inFlight.read,
  };
};

export const syncIo: FileIo<number> = {
  dataBlock: SYNC_DATA_BLOCK,
  open: (path, flags) => openSync(path, flags),
  size: (fd) => fstatSync(fd).size,
  read: (fd, buffer, length, position) => readSync(fd, buffer, 0, length, position),
  blocks: syncBlocks,
  sink: (fd, hash, input) => new SyncFileSink(fd, hash, input && { fd: input.file, size: input.size }),
  close: (fd) => closeSync(fd),
  unlink: (path) => unlinkSync(path),
  settled: () => undefined,
};

/** A file that ends in EOI needs no scan for it (FF D9 cannot occur inside scan data). */
export const endsInEoi = (tail: Buffer, size: number): boolean =>
  size > 4 && tail[0] === 0xff && tail[1] === 0xd9;

/** The input of one stamp: open, with its size, whether it ends in EOI, and its blocks. */
export interface Input<F> {
  file: F;
  size: number;
  endsWithEoi: boolean;
  /** A trailer with IIM (or AFCP offsets) to rewrite, found in the last bytes of a file that does not end in EOI. */
  trailer?: Trailer;
  blocks: AsyncIterable<Buffer> | Iterable<Buffer>;
}

/** The trailer in the last TRAILER_WINDOW bytes of a file, if any. */
async function readTrailer<F>(io: FileIo<F>, file: F, size: number): Promise<Trailer | undefined> {
  const length = Math.min(size, TRAILER_WINDOW);
  const end = Buffer.alloc(length);
  const read = await io.read(file, end, length, size - length);
  return read === length ? findTrailer(end, size - length) : undefined;
}

/** Runs `use` with the input open; closes it and keeps its block buffers afterwards. */
export async function withInput<F, R>(
  io: FileIo<F>,
  inputPath: string,
  use: (input: Input<F>) => Promise<R>,
  /** Look for a trailer at the end (not in a head file, which ends where its image data starts). */
  findsTrailer = true,
): Promise<R> {
  const file = await io.open(inputPath, 'r');
  const buffers = [takeBuffer(HEAD_BLOCK), takeBuffer(io.dataBlock), takeBuffer(io.dataBlock)];
  try {
    const size = await io.size(file);
    const tail = Buffer.alloc(2);
    await io.read(file, tail, 2, Math.max(0, size - 2));
    const endsWithEoi = endsInEoi(tail, size);
    return await use({
      file,
      size,
      endsWithEoi,
      trailer: endsWithEoi || !findsTrailer ? undefined : await readTrailer(io, file, size),
      blocks: io.blocks(file, size, buffers),
    });
  } finally {
    await io.settled();
    await io.close(file);
    // Only now is every block written (the last ones go out with the final flush).
    giveBack(buffers);
  }
}
