// Blobs as ranges of local files: a stamped file is its new head and the received file's image
// data, which is never copied (issue 15: the second write of every stamped upload). The blob
// store reads them, the destination clients send them.
import fs from 'node:fs';

/** A range of a local file: bytes `start` up to (not including) `end`. */
export interface FilePart {
  file: string;
  start: number;
  end: number;
}

/** A local file that cannot be read, in words for the job log. */
export function localFileError(file: string, err: unknown): Error {
  const code = (err as { code?: unknown } | null)?.code;
  const message =
    code === 'ENOENT'
      ? `Local file missing: ${file}`
      : `Cannot read local file ${file}: ${err instanceof Error ? err.message : String(err)}`;
  return Object.assign(new Error(message), { code });
}

/** Throws when a file of `size` bytes does not hold the part's range. */
export function checkPart({ file, start, end }: FilePart, size: number): void {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end > size)
    throw new Error(`Local file ${file} has no bytes ${start} to ${end} (it has ${size})`);
}

/**
 * The parts' bytes in order, or those of `range` (inclusive) of their concatenation, in 1 MiB
 * reads. A file missing or shorter than its part ends it with an error.
 */
export async function* readFileParts(
  parts: readonly FilePart[],
  range?: { start: number; end: number },
): AsyncGenerator<Buffer> {
  let offset = 0; // where the part at hand starts in the concatenation
  for (const part of parts) {
    const length = part.end - part.start;
    const from = Math.max(range?.start ?? 0, offset);
    const to = Math.min(range ? range.end + 1 : Number.POSITIVE_INFINITY, offset + length);
    offset += length;
    if (from >= to) continue;
    const [start, end] = [part.start + from - (offset - length), part.start + to - (offset - length)];
    let bytes = 0;
    try {
      for await (const chunk of fs.createReadStream(part.file, {
        start,
        end: end - 1,
        highWaterMark: 1 << 20,
      })) {
        bytes += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
    } catch (err) {
      throw localFileError(part.file, err);
    }
    if (bytes !== end - start)
      throw new Error(`Local file ${part.file} is shorter than its part (changed meanwhile?)`);
  }
}
