// Stamping a file's head only (stampJpegHead): the engine's pass as stampJpegFile makes it, into a
// sink that keeps the new head in memory and notes where the input's image data starts. The
// stamped file is that head followed by the input from there: a caller that can splice (the
// server's blob store) never copies the image data (issue 15, bench/README.md "Stamping, session 13").
import { EoiScanner } from './eoi-scanner.ts';
import { noEoiWarning } from './jpeg.ts';
import type { StampOptions, StampResult } from './stamp.ts';
import { stampWith } from './stamp.ts';
import {
  asyncIo,
  type CountingSink,
  type FileIo,
  giveBack,
  type Input,
  syncIo,
  takeBuffer,
  withInput,
} from './stamp-io.ts';
import { stampHeadOnThread } from './stamp-threads.ts';
import type { Template } from './template.ts';

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
  /**
   * Set when the input ends in a trailer holding IIM (FotoStation, AFCP) that was rewritten: the
   * stamped file is then `head` + the input from `dataOffset` to `dataEnd` + `tail`.
   */
  dataEnd?: number;
  tail?: Buffer;
  /** Bytes of the stamped file (of its head, with headOnly). */
  size: number;
}

/**
 * Keeps what is written (the new head, in memory) and notes where the image data starts. Holding
 * the pieces is safe: before the image data the engine writes only buffers of its own (segments
 * are encoded anew, skipped bytes copied), never views of the reused block buffers.
 */
class HeadSink implements CountingSink {
  private parts: Buffer[] = [];
  /** What is written after the image data: a rewritten trailer. */
  readonly tail: Buffer[] = [];
  size = 0;
  dataOffset: number | undefined;
  dataEnd: number | undefined;

  write(bytes: Buffer): undefined {
    if (this.dataOffset === undefined) {
      this.parts.push(bytes);
      this.size += bytes.length;
    } else this.tail.push(bytes);
    return undefined;
  }

  copyRest(position: number, end?: number): boolean {
    this.dataOffset = position;
    this.dataEnd = end;
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
  return withInput(
    io,
    inputPath,
    async (input) => {
      const sink = new HeadSink();
      // The sink takes the image data unseen; a file that does not end in EOI is scanned below.
      const result = await stampWith(input.blocks, sink, template, options, true, built, input.trailer);
      const { dataOffset, dataEnd } = sink;
      if (dataOffset === undefined) throw new Error('stamping ended before the image data');
      if (headOnly && dataOffset !== input.size)
        throw new Error(`the head file holds ${input.size - dataOffset} bytes of image data`);
      if (!headOnly && !input.endsWithEoi && !(await holdsEoi(io, input, dataOffset, dataEnd)))
        result.warnings.push(noEoiWarning);
      const head = sink.take();
      if (dataEnd === undefined)
        return { ...result, head, dataOffset, size: head.length + input.size - dataOffset };
      const tail = Buffer.concat(sink.tail);
      return {
        ...result,
        head,
        dataOffset,
        dataEnd,
        tail,
        size: head.length + dataEnd - dataOffset + tail.length,
      };
    },
    !headOnly,
  );
}

/** Whether the image data from `from` holds EOI (a file may end in a trailer, or be cut short). */
async function holdsEoi<F>(io: FileIo<F>, input: Input<F>, from: number, to = input.size): Promise<boolean> {
  const scanner = new EoiScanner();
  const buffer = takeBuffer(io.dataBlock);
  try {
    for (let position = from; position < to && !scanner.found; ) {
      const bytesRead = await io.read(input.file, buffer, Math.min(buffer.length, to - position), position);
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
