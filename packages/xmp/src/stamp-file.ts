// Stamping a file into a file, without streams: the head is read in one small block and rewritten
// in memory, the image data is moved in 1 MB blocks. On the caller's thread every block is read
// while the one before it is still being worked on (the first data block while the engine builds
// the new metadata, each further one while the previous one is written). With a time limit the
// whole file is stamped on a stamp thread with synchronous reads and writes: no thread-pool round
// trip per block, and none of libuv's io_uring, whose polling thread doubles the CPU time of file
// I/O on a busy machine (issue 15, bench/README.md "Stamping itself"). There the image data after
// the head block is moved by the kernel (copy_file_range, kernel-copy.ts) where it can be.
import { createHash } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import type { StampOptions, StampResult } from './stamp.ts';
import { stampWith } from './stamp.ts';
import { asyncIo, type FileIo, syncIo, withInput } from './stamp-io.ts';
import { stampFileOnThread } from './stamp-threads.ts';
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

/** Cleaning up after a failure: the failure is what the caller hears of. */
async function quietly(operation: () => unknown): Promise<void> {
  try {
    await operation();
  } catch {}
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
      const result = await stampWith(
        input.blocks,
        sink,
        template,
        options,
        input.endsWithEoi,
        built,
        input.trailer,
      );
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
