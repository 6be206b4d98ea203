// Stamping a file into a file, without streams: the head is read in one small block and rewritten
// in memory, the image data is moved in 1 MB blocks, and every block is read while the one
// before it is still being worked on: the first data block while the engine builds the new
// metadata, each further one while the previous one is written. Stream scheduling was most of
// the time of stampJpeg on large files (issue 15, bench/stamp).
import { type FileHandle, open, unlink } from 'node:fs/promises';
import type { ByteSink } from './byte-stream.ts';
import type { StampOptions, StampResult } from './stamp.ts';
import { stampWith } from './stamp.ts';
import type { Template } from './template.ts';

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

  constructor(
    private readonly handle: FileHandle,
    private readonly written?: (bytes: Buffer) => void,
  ) {}

  write(bytes: Buffer): Promise<void> | undefined {
    this.written?.(bytes);
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

export interface FileStampOptions extends StampOptions {
  /**
   * Sees every byte written to the output, in order, before it is written (a blob store hashes
   * the file on the way instead of reading it again). The bytes are only valid during the call.
   */
  written?: (bytes: Buffer) => void;
}

/**
 * Stamps the JPEG at `inputPath` into a new file at `outputPath` (created or truncated). Same
 * result and errors as stampJpeg; on failure the output file is removed.
 */
export async function stampJpegFile(
  inputPath: string,
  outputPath: string,
  template: Template,
  { written, ...options }: FileStampOptions = {},
): Promise<StampResult> {
  const input = await open(inputPath, 'r');
  let output: FileHandle | undefined;
  const buffers = [takeBuffer(), takeBuffer(), takeBuffer()];
  const inFlight: InFlight = {};
  try {
    const { size } = await input.stat();
    // A file that ends in EOI needs no scan for it (FF D9 cannot occur inside scan data).
    const tail = Buffer.alloc(2);
    await input.read(tail, 0, 2, Math.max(0, size - 2));
    const endsWithEoi = size > 4 && tail[0] === 0xff && tail[1] === 0xd9;
    output = await open(outputPath, 'w');
    const sink = new FileSink(output, written);
    const result = await stampWith(
      blocks(input, size, buffers, inFlight),
      sink,
      template,
      options,
      endsWithEoi,
    );
    await sink.flush();
    await output.close();
    output = undefined;
    return result;
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
