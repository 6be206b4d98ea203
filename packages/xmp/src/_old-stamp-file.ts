// Stamping a file into a file, without streams: the head is read in one block and rewritten in
// memory, the image data is moved in 4 MB blocks, small writes are gathered into one writev.
// Stream scheduling was most of the time of stampJpeg on large files (issue 15, bench/stamp).
import { type FileHandle, open, unlink } from 'node:fs/promises';
import type { ByteSink } from './byte-stream.ts';
import type { StampOptions, StampResult } from './stamp.ts';
import { stampWith } from './stamp.ts';
import type { Template } from './template.ts';

const HEAD_BLOCK = 1024 * 1024;
const DATA_BLOCK = 4 * 1024 * 1024;
const SMALL_WRITE = 256 * 1024;

/**
 * The file in blocks: a first block of its own for the head, then one reused block for the
 * image data (fresh 16 MB buffers cost more in page faults than the copy). Reuse is safe:
 * the engine copies what it keeps of a block, and every data block is written (and the write
 * awaited) before the next is read.
 */
async function* blocks(handle: FileHandle, size: number): AsyncGenerator<Buffer> {
  let position = 0;
  let data: Buffer | undefined;
  while (position < size) {
    const first = position === 0;
    const length = Math.min(first ? HEAD_BLOCK : DATA_BLOCK, size - position);
    if (!first && !data) data = Buffer.allocUnsafe(DATA_BLOCK);
    const buffer = data && !first ? data : Buffer.allocUnsafe(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** Writes to a file handle; small pieces (segments) are gathered and go out with the next large one. */
class FileSink implements ByteSink {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly handle: FileHandle) {}

  write(bytes: Buffer): Promise<void> | undefined {
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
 * result and errors as stampJpeg; on failure the output file is removed.
 */
export async function stampJpegFile(
  inputPath: string,
  outputPath: string,
  template: Template,
  options: StampOptions = {},
): Promise<StampResult> {
  const input = await open(inputPath, 'r');
  let output: FileHandle | undefined;
  try {
    const { size } = await input.stat();
    // A file that ends in EOI needs no scan for it (FF D9 cannot occur inside scan data).
    const tail = Buffer.alloc(2);
    await input.read(tail, 0, 2, Math.max(0, size - 2));
    const endsWithEoi = size > 4 && tail[0] === 0xff && tail[1] === 0xd9;
    output = await open(outputPath, 'w');
    const sink = new FileSink(output);
    const result = await stampWith(blocks(input, size), sink, template, options, endsWithEoi);
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
    await input.close();
  }
}
