// Stamping: one pass over a JPEG stream that reads its metadata, applies the template and
// writes XMP plus IPTC-IIM in sync, copying everything else byte for byte.
import type { Readable, Writable } from 'node:stream';
import { type ByteSink, WritableSink } from './byte-stream.ts';
import { defaultLimits, type MetadataLimits, rewriteJpeg } from './jpeg.ts';
import { type StampedSegments, type StampResult, stampSegments } from './stamp-segments.ts';
import { stampOnThread } from './stamp-threads.ts';
import { checkTemplate, type Template } from './template.ts';
import type { Trailer } from './trailers.ts';
import type { VariableOptions } from './variables.ts';

export type { StampResult } from './stamp-segments.ts';

export interface StampOptions extends VariableOptions {
  limits?: Partial<MetadataLimits>;
  /**
   * Runs the engine's work on the metadata (parse, merge, serialize) on a stamp thread and stops
   * it after this many milliseconds with MetadataError TIME_LIMIT, so that one hostile file
   * cannot hold up the caller's event loop. Without it the work runs on the caller's thread.
   */
  timeLimitMs?: number;
}

/**
 * The stamping pass over any byte source and sink: reads the head, writes the new metadata and
 * copies the rest. stampJpeg (streams) and stampJpegFile (files) wrap it.
 */
export async function stampWith(
  source: AsyncIterable<unknown> | Iterable<unknown>,
  sink: ByteSink,
  template: Template,
  options: StampOptions = {},
  endsWithEoi = false,
  /** Called once the new metadata is made (a stamp thread's time limit ends there). */
  built?: () => void,
  /** A trailer found at the end of a file, rewritten with the new IIM. */
  trailer?: Trailer,
): Promise<StampResult> {
  checkTemplate(template); // refuse a bad template before touching the output
  let stamped: StampedSegments | undefined;
  const meta = await rewriteJpeg(
    source,
    sink,
    async (found) => {
      const { limits: _limits, timeLimitMs, ...variables } = options;
      stamped =
        timeLimitMs === undefined
          ? stampSegments(found, template, variables)
          : await stampOnThread(found, template, variables, timeLimitMs);
      built?.();
      return { segments: stamped.segments, exif: stamped.exif, iim: stamped.iim };
    },
    { ...defaultLimits, ...options.limits },
    endsWithEoi,
    trailer,
  );
  const warnings = stamped?.warnings ?? [];
  // Segments dropped after the metadata was written are only known at the end.
  for (const warning of meta.warnings) if (!warnings.includes(warning)) warnings.push(warning);
  return { warnings, unknownVariables: stamped?.unknownVariables ?? [] };
}

/**
 * Stamps a JPEG: reads `input`, writes the stamped file to `output` and ends it. Only the
 * metadata segments are held in memory. Rejects with MetadataError for input that is not a
 * usable JPEG, after destroying `output` (the caller deletes the partial file).
 */
export async function stampJpeg(
  input: Readable | AsyncIterable<Uint8Array>,
  output: Writable,
  template: Template,
  options: StampOptions = {},
): Promise<StampResult> {
  const sink = new WritableSink(output);
  try {
    const result = await stampWith(input, sink, template, options);
    await sink.end();
    return result;
  } catch (error) {
    sink.abort();
    // rewriteJpeg closes the input it read from; a template refused up front never got that far.
    if ('destroy' in input && typeof input.destroy === 'function') input.destroy();
    throw error;
  }
}
