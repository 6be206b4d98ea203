// Streaming JPEG rewriter. Only metadata segments (XMP APP1, extended XMP APP1, Photoshop APP13)
// are held in memory, each at most 64 KB and all together bounded; every other segment is copied
// byte for byte as it passes, and everything from the first SOS on (scans, tables between
// progressive scans, EOI, any trailer) is copied untouched, chunk by chunk.
import { type ByteSink, ChunkReader } from './byte-stream.ts';
import { EoiScanner } from './eoi-scanner.ts';
import { MetadataError } from './errors.ts';
import {
  APP1,
  classify,
  defaultLimits,
  EOI,
  encodeSegment,
  isAppOrComment,
  isStandalone,
  type JpegMetadata,
  MetadataCollector,
  type MetadataLimits,
  readMarker,
  readSegment,
  readSoi,
  type Segment,
  SOI,
  SOS,
} from './jpeg-segments.ts';
import { isMpfSegment, shiftMpfOffsets } from './mpf.ts';
import type { Trailer } from './trailers.ts';

export { EoiScanner } from './eoi-scanner.ts';
export {
  defaultLimits,
  EXTENDED_XMP_HEADER,
  type ExtendedXmpChunk,
  encodeSegment,
  isJpeg,
  type JpegMetadata,
  MAX_SEGMENT_PAYLOAD,
  type MetadataLimits,
  readJpegHead,
  XMP_HEADER,
} from './jpeg-segments.ts';
/** New metadata segments, and optionally a new payload for the first Exif segment (in its place). */
export interface BuiltMetadata {
  segments: Buffer[];
  exif?: Buffer;
  /** The new IIM block, for the copies in a trailer. */
  iim?: Buffer;
}

export type MetadataBuilder = (
  meta: JpegMetadata,
) => Buffer[] | BuiltMetadata | Promise<Buffer[] | BuiltMetadata>;

/** ExifTool stamps such files too; every byte that was there is kept. */
export const noEoiWarning = 'the JPEG has no EOI marker (cut short?); stamped with all its bytes kept';
const mpfLeftWarning = (limit: number): string =>
  `the MPF index was kept as it was although more than ${limit} bytes of segments follow it; its images' offsets may be wrong`;

/**
 * Copies a JPEG from source to sink, replacing its XMP and Photoshop APP13 segments by the
 * segments build() returns. New segments go before the APP2 MPF segment when there is one (so
 * the offsets of its images, which count from it, move only by what changes after it: those
 * are shifted), else before the first non-APPn segment (DQT, SOF, ...), so SOI, JFIF and Exif
 * keep their places; tables are held back until SOS (bounded) in case metadata follows them.
 * From the first Exif or MPF segment on, segments are held too, so that build() can replace the
 * Exif payload in its place and the MPF offsets can follow.
 */

export async function rewriteJpeg(
  source: AsyncIterable<unknown> | Iterable<unknown>,
  sink: ByteSink,
  build: MetadataBuilder,
  limits: MetadataLimits = defaultLimits,
  /** The caller saw the file end in FF D9 (a file it can look at the end of): no scan needed. */
  endsWithEoi = false,
  /** A trailer the caller found at the end of the file: rewritten with the new IIM (trailers.ts). */
  trailer?: Trailer,
): Promise<JpegMetadata> {
  const reader = new ChunkReader(source);
  try {
    await readSoi(reader);
    // Bytes written before the image data, so a trailer knows where it lands.
    let written = 0;
    const write = (bytes: Buffer): Promise<void> | undefined => {
      written += bytes.length;
      return sink.write(bytes);
    };
    let iim: Buffer | undefined;
    await write(Buffer.from([0xff, SOI]));
    const collector = new MetadataCollector(limits);
    let held: Buffer[] = [];
    let heldBytes = 0;
    // Where the held Exif and MPF segments are, and where the held tables start (new segments
    // go there, or before MPF); where the MPF segment ends in the input.
    let exifAt: number | undefined;
    let mpfAt: number | undefined;
    let mpfEnd = 0;
    let tablesAt: number | undefined;
    let phase = 'app' as 'app' | 'tables' | 'emitted';
    let exifWritten = false;
    let mpfWritten = false;
    /** Writes the held segments and the new metadata; `inputEnd`: where the held bytes end in the input. */
    const emit = async (inputEnd: number): Promise<'emitted'> => {
      const built = await build(collector.finish());
      const { segments, exif } = Array.isArray(built) ? { segments: built, exif: undefined } : built;
      if (!Array.isArray(built)) iim = built.iim;
      if (exif && exifWritten)
        collector.meta.warnings.push(
          `EXIF ImageDescription, Artist and Copyright left unchanged: more than ${limits.maxHeldBytes} bytes of segments follow the Exif block`,
        );
      if (mpfWritten) collector.meta.warnings.push(mpfLeftWarning(limits.maxHeldBytes));
      const out = held.map((segment, i) => (i === exifAt && exif ? encodeSegment(APP1, exif) : segment));
      const insertAt = mpfAt ?? tablesAt ?? held.length;
      out.splice(insertAt, 0, ...segments);
      if (mpfAt !== undefined) {
        const at = mpfAt + segments.length;
        let afterMpf = 0;
        for (const segment of out.slice(at + 1)) afterMpf += segment.length;
        let all = afterMpf;
        for (const segment of out.slice(0, at + 1)) all += segment.length;
        // The MP images move by what changed after the MPF segment; the primary image (which
        // ends after the head) grows by what changed in the whole head.
        const delta = afterMpf - (inputEnd - mpfEnd);
        const growth = written + all - inputEnd;
        const mpf = out[at];
        const shifted =
          mpf && (delta !== 0 || growth !== 0)
            ? shiftMpfOffsets(mpf.subarray(4), delta, growth, collector.meta.warnings)
            : undefined;
        if (shifted) out[at] = encodeSegment(mpf?.[1] ?? 0, shifted);
      }
      for (const segment of out) await write(segment);
      held = [];
      return 'emitted';
    };
    /** Holds a segment back; returns the phase after it (emitted once too much is held). */
    const hold = async (encoded: Buffer, current: 'app' | 'tables'): Promise<typeof phase> => {
      held.push(encoded);
      heldBytes += encoded.length;
      if (heldBytes <= limits.maxHeldBytes) return current;
      if (current === 'app') {
        // Too much between Exif and the tables: keep the Exif as it is rather than risk
        // dropping metadata that may still follow.
        for (const segment of held) await write(segment);
        held = [];
        heldBytes = 0;
        exifWritten = exifAt !== undefined;
        mpfWritten = mpfAt !== undefined;
        exifAt = undefined;
        mpfAt = undefined;
        return current;
      }
      return emit(reader.position);
    };
    /** Writes or holds a segment (or skipped bytes, marker undefined) in file order. */
    const place = async (encoded: Buffer, marker: number | undefined): Promise<void> => {
      if (phase === 'emitted') {
        await write(encoded);
        return;
      }
      if (marker !== undefined && phase === 'app' && !isAppOrComment(marker)) {
        phase = 'tables';
        tablesAt = held.length;
      }
      if (phase === 'app' && exifAt === undefined && mpfAt === undefined) await write(encoded);
      else phase = await hold(encoded, phase);
    };
    for (;;) {
      const { marker, skipped } = await readMarker(reader);
      if (skipped) {
        collector.meta.warnings.push(
          `${skipped.length} unknown bytes between JPEG segments were kept as they are`,
        );
        await place(skipped, undefined);
      }
      if (marker === EOI) throw new MetadataError('TRUNCATED', 'JPEG ends (EOI) before any image data (SOS)');
      if (marker === SOS) break;
      const segment: Segment = isStandalone(marker)
        ? { marker, payload: Buffer.alloc(0) }
        : await readSegment(reader, marker);
      const encoded = isStandalone(marker)
        ? Buffer.from([0xff, marker])
        : encodeSegment(marker, segment.payload);
      const kind = isStandalone(marker) ? 'other' : classify(marker, segment.payload);
      if (phase === 'emitted') {
        if (kind !== 'other' && kind !== 'exif') {
          collector.meta.warnings.push(
            `a metadata segment after ${limits.maxHeldBytes} bytes of tables was dropped`,
          );
          if (mpfEnd > 0) collector.meta.warnings.push(mpfLeftWarning(limits.maxHeldBytes));
          continue;
        }
        await write(encoded);
        continue;
      }
      const firstExif = kind === 'exif' && collector.meta.exif === undefined;
      if (collector.take(kind, segment.payload)) continue;
      if (phase === 'app' && firstExif && isAppOrComment(marker)) exifAt = held.length;
      if (phase === 'app' && mpfEnd === 0 && isMpfSegment(marker, segment.payload)) {
        mpfAt = held.length;
        mpfEnd = reader.position;
      }
      await place(encoded, marker);
    }
    // The SOS marker was just read: the held bytes end before it.
    if (phase !== 'emitted') await emit(reader.position - 2);
    const sos = await readSegment(reader, SOS);
    await write(encodeSegment(SOS, sos.payload));
    // A trailer is copied up to where it starts and written anew after that.
    const dataEnd = trailer && trailer.start >= reader.position ? trailer.start : undefined;
    const newTrailer =
      dataEnd === undefined ? undefined : trailer?.rebuild(iim, dataEnd + written - reader.position);
    const scanner = new EoiScanner();
    scanner.found = endsWithEoi;
    // A file known to end in EOI needs no look at its image data: the sink may take it unseen,
    // from its first byte (what the reader holds of it is read again by the sink, or not at all).
    if (endsWithEoi && sink.copyRest?.(reader.position, dataEnd)) {
      if (newTrailer) await sink.write(newTrailer);
      return collector.meta;
    }
    for (let chunk = await reader.nextChunk(); chunk; chunk = await reader.nextChunk()) {
      const part =
        dataEnd === undefined
          ? chunk
          : chunk.subarray(0, Math.max(0, dataEnd - (reader.position - chunk.length)));
      if (part.length === 0) break;
      if (!scanner.found) scanner.feed(part);
      const backpressure = sink.write(part);
      if (backpressure) await backpressure;
    }
    if (newTrailer) await sink.write(newTrailer);
    if (!scanner.found) collector.meta.warnings.push(noEoiWarning);
    return collector.meta;
  } finally {
    await reader.close();
  }
}
