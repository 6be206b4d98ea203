// Stamping a file into a file, without streams: the head is read in one small block and rewritten
// in memory, the image data is moved in 1 MB blocks. On the caller's thread every block is read
// while the one before it is still being worked on (the first data block while the engine builds
// the new metadata, each further one while the previous one is written). With a time limit the
// whole file is stamped on a stamp thread with synchronous reads and writes: no thread-pool round
// trip per block, and none of libuv's io_uring, whose polling thread doubles the CPU time of file
// I/O on a busy machine (issue 15, bench/README.md "Stamping itself"). There the image data after
// the head block is moved by the kernel (copy_file_range, kernel-copy.ts) where it can be.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, unlinkSync, writeSync, writevSync } from 'node:fs';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import type { ByteSink } from './byte-stream.ts';
import { EoiScanner } from './eoi-scanner.ts';
import { noEoiWarning } from './jpeg.ts';
import { copyRange } from './kernel-copy.ts';
import type { StampOptions, StampResult } from './stamp.ts';
import { stampWith } from './stamp.ts';
import { stampFileOnThread, stampHeadOnThread } from './stamp-threads.ts';
import type { Template } from './template.ts';

export interface FileStampOptions extends StampOptions {
  /** Also return the SHA-256 of the written file, computed on the way (no second read). */
  sha256?: boolean;
  /**
   * On a stamp thread, the image data after the head is moved by the kernel (copy_file_range)
   * where it can be: a file that ends in EOI, no SHA-256 asked for, Linux, a file system that
   * supports it; otherwise, or with `false`, in blocks through user space. Same bytes either way.
   */
  kernelCopy?: boolean;
}

export interface FileStampResult extends StampResult {
  /** Bytes written. */
  size: number;
  /** Hex digest, when asked for with `sha256`. */
  sha256?: string;
}

export interface HeadStampOptions extends StampOptions {
  /**
   * The input is the head of a stamped file whose image data is elsewhere and ends in EOI (a
   * spliced blob's head file, stamped again): it must end where its image data starts.
   */
  headOnly?: boolean;
}

export interface HeadStampResult extends StampResult {
  /** The stamped file up to its image data: SOI, the metadata, the tables, the SOS header. */
  head: Buffer;
  /** Where the input's image data starts: the stamped file is `head` + the input from here. */
  dataOffset: number;
  /** Bytes of the stamped file (of its head, with headOnly). */
  size: number;
}

/**
 * Enough for the metadata of most files (the IPTC reference head is 38 KB, an APP1 at most 64 KB);
 * a larger head is read on in data blocks. The image data is copied by the kernel from its first
 * byte where it can be (what the head block held of it is read again), else in blocks.
 */
const HEAD_BLOCK = 64 * 1024;
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
const takeBuffer = (size: number): Buffer => spare.get(size)?.pop() ?? Buffer.allocUnsafe(size);
function giveBack(buffers: readonly Buffer[]): void {
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

interface CountingSink extends ByteSink {
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

  copyRest(position: number): boolean {
    if (!this.input || this.hash) return false;
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
interface FileIo<F> {
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

const asyncIo = (): FileIo<FileHandle> => {
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

const syncIo: FileIo<number> = {
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
const endsInEoi = (tail: Buffer, size: number): boolean => size > 4 && tail[0] === 0xff && tail[1] === 0xd9;

/** Cleaning up after a failure: the failure is what the caller hears of. */
async function quietly(operation: () => unknown): Promise<void> {
  try {
    await operation();
  } catch {}
}

/** The input of one stamp: open, with its size, whether it ends in EOI, and its blocks. */
interface Input<F> {
  file: F;
  size: number;
  endsWithEoi: boolean;
  blocks: AsyncIterable<Buffer> | Iterable<Buffer>;
}

/** Runs `use` with the input open; closes it and keeps its block buffers afterwards. */
async function withInput<F, R>(
  io: FileIo<F>,
  inputPath: string,
  use: (input: Input<F>) => Promise<R>,
): Promise<R> {
  const file = await io.open(inputPath, 'r');
  const buffers = [takeBuffer(HEAD_BLOCK), takeBuffer(io.dataBlock), takeBuffer(io.dataBlock)];
  try {
    const size = await io.size(file);
    const tail = Buffer.alloc(2);
    await io.read(file, tail, 2, Math.max(0, size - 2));
    return await use({
      file,
      size,
      endsWithEoi: endsInEoi(tail, size),
      blocks: io.blocks(file, size, buffers),
    });
  } finally {
    await io.settled();
    await io.close(file);
    // Only now is every block written (the last ones go out with the final flush).
    giveBack(buffers);
  }
}

/** Stamps one file into another with the given file operations; on failure the output is removed. */
function stampFileWith<F>(
  io: FileIo<F>,
  inputPath: string,
  outputPath: string,
  template: Template,
  { sha256, kernelCopy = true, ...options }: Omit<FileStampOptions, 'timeLimitMs'>,
  built?: () => void,
): Promise<FileStampResult> {
  return withInput(io, inputPath, async (input) => {
    let output: F | undefined;
    try {
      output = await io.open(outputPath, 'w');
      const hash = sha256 ? createHash('sha256') : undefined;
      const sink = io.sink(output, hash, kernelCopy ? input : undefined);
      const result = await stampWith(input.blocks, sink, template, options, input.endsWithEoi, built);
      await sink.flush();
      await io.close(output);
      output = undefined;
      return { ...result, size: sink.size, sha256: hash?.digest('hex') };
    } catch (error) {
      if (output !== undefined) {
        const written = output;
        await quietly(() => io.close(written));
        await quietly(() => io.unlink(outputPath));
      }
      throw error;
    }
  });
}

/**
 * Keeps what is written (the new head, in memory) and notes where the image data starts. Holding
 * the pieces is safe: before the image data the engine writes only buffers of its own (segments
 * are encoded anew, skipped bytes copied), never views of the reused block buffers.
 */
class HeadSink implements CountingSink {
  private parts: Buffer[] = [];
  size = 0;
  dataOffset: number | undefined;

  write(bytes: Buffer): undefined {
    this.parts.push(bytes);
    this.size += bytes.length;
    return undefined;
  }

  copyRest(position: number): boolean {
    this.dataOffset = position;
    return true;
  }

  flush(): undefined {
    return undefined;
  }

  /** The head in one buffer. */
  take(): Buffer {
    return Buffer.concat(this.parts, this.size);
  }
}

/** The new head of a file, without its image data. */
function stampHeadWith<F>(
  io: FileIo<F>,
  inputPath: string,
  template: Template,
  { headOnly = false, ...options }: Omit<HeadStampOptions, 'timeLimitMs'>,
  built?: () => void,
): Promise<HeadStampResult> {
  return withInput(io, inputPath, async (input) => {
    const sink = new HeadSink();
    // The sink takes the image data unseen; a file that does not end in EOI is scanned below.
    const result = await stampWith(input.blocks, sink, template, options, true, built);
    const { dataOffset } = sink;
    if (dataOffset === undefined) throw new Error('stamping ended before the image data');
    if (headOnly && dataOffset !== input.size)
      throw new Error(`the head file holds ${input.size - dataOffset} bytes of image data`);
    if (!headOnly && !input.endsWithEoi && !(await holdsEoi(io, input, dataOffset)))
      result.warnings.push(noEoiWarning);
    const head = sink.take();
    return { ...result, head, dataOffset, size: head.length + input.size - dataOffset };
  });
}

/** Whether the image data from `from` holds EOI (a file may end in a trailer, or be cut short). */
async function holdsEoi<F>(io: FileIo<F>, input: Input<F>, from: number): Promise<boolean> {
  const scanner = new EoiScanner();
  const buffer = takeBuffer(io.dataBlock);
  try {
    for (let position = from; position < input.size && !scanner.found; ) {
      const bytesRead = await io.read(
        input.file,
        buffer,
        Math.min(buffer.length, input.size - position),
        position,
      );
      if (bytesRead === 0) break;
      scanner.feed(buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
    return scanner.found;
  } finally {
    giveBack([buffer]);
  }
}

/**
 * Stamps the JPEG at `inputPath` into a new file at `outputPath` (created or truncated). Same
 * result and errors as stampJpeg; on failure the output file is removed. With `timeLimitMs` the
 * whole file is stamped on a stamp thread, and the limit counts the engine's work, not the copy.
 */
export async function stampJpegFile(
  inputPath: string,
  outputPath: string,
  template: Template,
  options: FileStampOptions = {},
): Promise<FileStampResult> {
  const { timeLimitMs, ...rest } = options;
  if (timeLimitMs === undefined) return stampFileWith(asyncIo(), inputPath, outputPath, template, rest);
  try {
    return await stampFileOnThread(inputPath, outputPath, template, rest, timeLimitMs);
  } catch (error) {
    // A thread stopped at its time limit had no chance to remove its output.
    await unlink(outputPath).catch(() => {});
    throw error;
  }
}

/**
 * The stamped file as its new head and the input's image data, which is not copied: the stamped
 * file is `head` followed by the input from `dataOffset` to its end (the same bytes stampJpegFile
 * writes, warnings included). Same errors as stampJpeg; with `timeLimitMs` on a stamp thread.
 */
export function stampJpegHead(
  inputPath: string,
  template: Template,
  options: HeadStampOptions = {},
): Promise<HeadStampResult> {
  const { timeLimitMs, ...rest } = options;
  if (timeLimitMs === undefined) return stampHeadWith(asyncIo(), inputPath, template, rest);
  return stampHeadOnThread(inputPath, template, rest, timeLimitMs);
}

/** stampJpegHead as a stamp thread runs it (synchronous reads). */
export function stampHeadSync(
  inputPath: string,
  template: Template,
  options: Omit<HeadStampOptions, 'timeLimitMs'>,
  built: () => void,
): Promise<HeadStampResult> {
  return stampHeadWith(syncIo, inputPath, template, options, built);
}

/**
 * stampJpegFile as a stamp thread runs it: synchronous reads and writes (the thread has nothing
 * else to do). `built` is called once the new metadata is made: the time limit ends there.
 */
export function stampFileSync(
  inputPath: string,
  outputPath: string,
  template: Template,
  options: Omit<FileStampOptions, 'timeLimitMs'>,
  built: () => void,
): Promise<FileStampResult> {
  return stampFileWith(syncIo, inputPath, outputPath, template, options, built);
}
