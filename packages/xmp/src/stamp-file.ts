// Stamping a file into a file, without streams: the head is read in one small block and rewritten
// in memory, the image data is moved in 1 MB blocks. On the caller's thread every block is read
// while the one before it is still being worked on (the first data block while the engine builds
// the new metadata, each further one while the previous one is written). With a time limit the
// whole file is stamped on a stamp thread with synchronous reads and writes: no thread-pool round
// trip per block, and none of libuv's io_uring, whose polling thread doubles the CPU time of file
// I/O on a busy machine (issue 15, bench/README.md "Stamping itself").
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { type FileHandle, open, unlink } from 'node:fs/promises';
import type { ByteSink } from './byte-stream.ts';
import type { StampOptions, StampResult } from './stamp.ts';
import { stampWith } from './stamp.ts';
import { stampFileOnThread } from './stamp-threads.ts';
import type { Template } from './template.ts';

export interface FileStampOptions extends StampOptions {
  /** Also return the SHA-256 of the written file, computed on the way (no second read). */
  sha256?: boolean;
}

export interface FileStampResult extends StampResult {
  /** Bytes written. */
  size: number;
  /** Hex digest, when asked for with `sha256`. */
  sha256?: string;
}

/** Enough for the metadata of most files; a larger head is read on in data blocks. */
const HEAD_BLOCK = 256 * 1024;
const DATA_BLOCK = 1024 * 1024;
const SMALL_WRITE = 256 * 1024;

/**
 * Block buffers kept between files (three per file): a fresh large buffer costs a page fault
 * per 4 KB on first use. Enough for two files at a time.
 */
const spare: Buffer[] = [];
const SPARE_MAX = 6;
const takeBuffer = (): Buffer => spare.pop() ?? Buffer.allocUnsafe(DATA_BLOCK);

/** Reads still in flight when the consumer stopped: they must end before their buffers are reused. */
interface InFlight {
  read?: Promise<unknown>;
}

/**
 * The file in blocks, the next one always already being read: the head block first (buffers[0]),
 * then the image data in buffers[1] and buffers[2] in turn. Reuse is safe: the engine copies
 * what it keeps of a block, and a buffer is read into again only when the consumer asks for the
 * block after the next one, by which time the sink has written the block that was in it (a full
 * block is never left pending, see FileSink).
 */
async function* blocks(
  handle: FileHandle,
  size: number,
  buffers: readonly Buffer[],
  inFlight: InFlight,
): AsyncGenerator<Buffer> {
  const readBlock = async (position: number, index: number): Promise<Buffer> => {
    const buffer = buffers[index === 0 ? 0 : 1 + (index % 2)] as Buffer;
    const length = Math.min(index === 0 ? HEAD_BLOCK : DATA_BLOCK, size - position);
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

/** Writes to a file handle; small pieces (segments) are gathered and go out with the next large one. */
class FileSink implements ByteSink {
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
  if (timeLimitMs === undefined) return stampFileHere(inputPath, outputPath, template, rest);
  try {
    return await stampFileOnThread(inputPath, outputPath, template, rest, timeLimitMs);
  } catch (error) {
    // A thread stopped at its time limit had no chance to remove its output.
    await unlink(outputPath).catch(() => {});
    throw error;
  }
}

async function stampFileHere(
  inputPath: string,
  outputPath: string,
  template: Template,
  { sha256, ...options }: FileStampOptions,
): Promise<FileStampResult> {
  const input = await open(inputPath, 'r');
  let output: FileHandle | undefined;
  const buffers = [takeBuffer(), takeBuffer(), takeBuffer()];
  const inFlight: InFlight = {};
  try {
    const { size } = await input.stat();
    const tail = Buffer.alloc(2);
    await input.read(tail, 0, 2, Math.max(0, size - 2));
    output = await open(outputPath, 'w');
    const hash = sha256 ? createHash('sha256') : undefined;
    const sink = new FileSink(output, hash);
    const result = await stampWith(
      blocks(input, size, buffers, inFlight),
      sink,
      template,
      options,
      endsInEoi(tail, size),
    );
    await sink.flush();
    await output.close();
    output = undefined;
    return { ...result, size: sink.size, sha256: hash?.digest('hex') };
  } catch (error) {
    if (output) {
      await output.close().catch(() => {});
      await unlink(outputPath).catch(() => {});
    }
    throw error;
  } finally {
    await inFlight.read;
    await input.close();
    // Only now is every block written (the last ones go out with the final flush).
    for (const buffer of buffers) if (spare.length < SPARE_MAX) spare.push(buffer);
  }
}

/** A file that ends in EOI needs no scan for it (FF D9 cannot occur inside scan data). */
const endsInEoi = (tail: Buffer, size: number): boolean => size > 4 && tail[0] === 0xff && tail[1] === 0xd9;

/** The file in blocks, read when asked for: the head block into buffers[0], then buffers[1] and [2] in turn (see blocks). */
function* syncBlocks(fd: number, size: number, buffers: readonly Buffer[]): Generator<Buffer> {
  for (let position = 0, index = 0; position < size; index++) {
    const buffer = buffers[index === 0 ? 0 : 1 + (index % 2)] as Buffer;
    const length = Math.min(index === 0 ? HEAD_BLOCK : DATA_BLOCK, size - position);
    const bytesRead = readSync(fd, buffer, 0, length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** Writes every piece at once (a block's buffer is read into again two blocks later). */
class SyncFileSink implements ByteSink {
  size = 0;

  constructor(
    private readonly fd: number,
    private readonly hash?: Hash,
  ) {}

  write(bytes: Buffer): undefined {
    this.hash?.update(bytes);
    this.size += bytes.length;
    for (let done = 0; done < bytes.length; ) done += writeSync(this.fd, bytes, done, bytes.length - done);
    return undefined;
  }
}

/**
 * stampJpegFile as a stamp thread runs it: synchronous reads and writes (the thread has nothing
 * else to do). `built` is called once the new metadata is made: the time limit ends there.
 */
export async function stampFileSync(
  inputPath: string,
  outputPath: string,
  template: Template,
  { sha256, ...options }: Omit<FileStampOptions, 'timeLimitMs'>,
  built: () => void,
): Promise<FileStampResult> {
  const input = openSync(inputPath, 'r');
  let output: number | undefined;
  const buffers = [takeBuffer(), takeBuffer(), takeBuffer()];
  try {
    const { size } = fstatSync(input);
    const tail = Buffer.alloc(2);
    readSync(input, tail, 0, 2, Math.max(0, size - 2));
    output = openSync(outputPath, 'w');
    const hash = sha256 ? createHash('sha256') : undefined;
    const sink = new SyncFileSink(output, hash);
    const result = await stampWith(
      syncBlocks(input, size, buffers),
      sink,
      template,
      options,
      endsInEoi(tail, size),
      built,
    );
    closeSync(output);
    output = undefined;
    return { ...result, size: sink.size, sha256: hash?.digest('hex') };
  } catch (error) {
    if (output !== undefined) {
      closeSync(output);
      unlinkSync(outputPath);
    }
    throw error;
  } finally {
    closeSync(input);
    for (const buffer of buffers) if (spare.length < SPARE_MAX) spare.push(buffer);
  }
}
