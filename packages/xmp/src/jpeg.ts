// Streaming JPEG segment reader/writer. Only metadata segments (XMP APP1, extended XMP APP1,
// Photoshop APP13) are held in memory, each at most 64 KB and all together bounded; every other
// segment is copied byte for byte as it passes, and everything from the first SOS on (scans,
// tables between progressive scans, EOI, any trailer) is copied untouched, chunk by chunk.
import { type ByteSink, ChunkReader } from './byte-stream.ts';
import { MetadataError } from './errors.ts';
import { EXIF_HEADER } from './exif.ts';
import { PHOTOSHOP_HEADER } from './iim.ts';

export const XMP_HEADER = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
export const EXTENDED_XMP_HEADER = Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1');

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP1 = 0xe1;
const APP13 = 0xed;
const COM = 0xfe;
/** A segment's length field counts itself, so the payload is at most 65533 bytes. */
export const MAX_SEGMENT_PAYLOAD = 0xffff - 2;

export interface MetadataLimits {
  /** Total bytes of extended XMP chunks kept. Default 16 MB. */
  maxExtendedXmpBytes: number;
  /** Total bytes of Photoshop APP13 payloads kept. Default 16 MB. */
  maxPhotoshopBytes: number;
  /** Bytes of non-metadata segments held back between the first table and SOS. Default 1 MB. */
  maxHeldBytes: number;
}

export const defaultLimits: MetadataLimits = {
  maxExtendedXmpBytes: 16 * 1024 * 1024,
  maxPhotoshopBytes: 16 * 1024 * 1024,
  maxHeldBytes: 1024 * 1024,
};

export interface ExtendedXmpChunk {
  guid: string;
  fullLength: number;
  offset: number;
  data: Buffer;
}

/** What the head of a JPEG holds that the engine reads or replaces. */
export interface JpegMetadata {
  /** First APP1 Exif payload (with its "Exif\0\0" header). Copied through, never rewritten. */
  exif?: Buffer;
  /** Packet bytes of the standard XMP APP1 (header removed). */
  xmp?: Buffer;
  extendedXmp: ExtendedXmpChunk[];
  /** Photoshop image resource bytes of all APP13 "Photoshop 3.0" segments, in order, joined. */
  photoshop?: Buffer;
  warnings: string[];
}

export function isJpeg(firstBytes: Uint8Array): boolean {
  return firstBytes.length >= 3 && firstBytes[0] === 0xff && firstBytes[1] === SOI && firstBytes[2] === 0xff;
}

export function encodeSegment(marker: number, payload: Uint8Array): Buffer {
  if (payload.length > MAX_SEGMENT_PAYLOAD) {
    throw new MetadataError('METADATA_TOO_LARGE', `segment payload of ${payload.length} bytes exceeds 65533`);
  }
  const header = Buffer.alloc(4);
  header[0] = 0xff;
  header[1] = marker;
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

function startsWith(payload: Buffer, header: Buffer): boolean {
  return payload.length >= header.length && payload.subarray(0, header.length).equals(header);
}

/** Markers without a length field. */
function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

function isAppOrComment(marker: number): boolean {
  return (marker >= 0xe0 && marker <= 0xef) || marker === COM;
}

type Kind = 'exif' | 'xmp' | 'extendedXmp' | 'photoshop' | 'other';

function classify(marker: number, payload: Buffer): Kind {
  if (marker === APP1) {
    if (startsWith(payload, EXIF_HEADER)) return 'exif';
    if (startsWith(payload, XMP_HEADER)) return 'xmp';
    if (startsWith(payload, EXTENDED_XMP_HEADER)) return 'extendedXmp';
  }
  if (marker === APP13 && startsWith(payload, PHOTOSHOP_HEADER)) return 'photoshop';
  return 'other';
}

/** Collects metadata segments within the limits. */
class MetadataCollector {
  readonly meta: JpegMetadata = { extendedXmp: [], warnings: [] };
  private extendedBytes = 0;
  private readonly photoshopParts: Buffer[] = [];
  private photoshopBytes = 0;

  constructor(private readonly limits: MetadataLimits) {}

  /** true when the segment was metadata to be replaced (so it must not be copied). */
  take(kind: Kind, payload: Buffer): boolean {
    switch (kind) {
      case 'exif':
        // The first Exif block is the one readers use; it is copied through either way.
        this.meta.exif ??= Buffer.from(payload);
        return false;
      case 'xmp':
        if (this.meta.xmp) this.meta.warnings.push('a second standard XMP segment was dropped');
        else this.meta.xmp = Buffer.from(payload.subarray(XMP_HEADER.length));
        return true;
      case 'extendedXmp':
        this.addExtended(payload);
        return true;
      case 'photoshop':
        this.photoshopBytes += payload.length;
        if (this.photoshopBytes > this.limits.maxPhotoshopBytes) {
          throw new MetadataError(
            'METADATA_TOO_LARGE',
            `Photoshop APP13 data exceeds ${this.limits.maxPhotoshopBytes} bytes`,
          );
        }
        this.photoshopParts.push(Buffer.from(payload.subarray(PHOTOSHOP_HEADER.length)));
        return true;
      default:
        return false;
    }
  }

  private addExtended(payload: Buffer): void {
    const at = EXTENDED_XMP_HEADER.length;
    if (payload.length < at + 40) {
      this.meta.warnings.push('an extended XMP segment too short to be valid was dropped');
      return;
    }
    this.extendedBytes += payload.length - at - 40;
    if (this.extendedBytes > this.limits.maxExtendedXmpBytes) {
      throw new MetadataError(
        'METADATA_TOO_LARGE',
        `extended XMP exceeds ${this.limits.maxExtendedXmpBytes} bytes`,
      );
    }
    this.meta.extendedXmp.push({
      guid: payload.toString('latin1', at, at + 32),
      fullLength: payload.readUInt32BE(at + 32),
      offset: payload.readUInt32BE(at + 36),
      data: Buffer.from(payload.subarray(at + 40)),
    });
  }

  finish(): JpegMetadata {
    if (this.photoshopParts.length > 0) this.meta.photoshop = Buffer.concat(this.photoshopParts);
    return this.meta;
  }
}

/**
 * Finds EOI after the first SOS, so a file cut short is reported. Walks markers the way a
 * decoder does: FF00 and RSTn belong to scan data, other markers between progressive scans
 * (DHT, SOS, ...) have a length that is skipped, so bytes inside them cannot fake an EOI.
 */
export class EoiScanner {
  found = false;
  private state: 'data' | 'marker' | 'length1' | 'length2' | 'skip' = 'data';
  private lengthHigh = 0;
  private remaining = 0;

  feed(buf: Buffer): void {
    let i = 0;
    while (i < buf.length && !this.found) {
      switch (this.state) {
        case 'data': {
          // Tight loop over the common case, FF 00 (a stuffed FF) and restart markers.
          let ff = buf.indexOf(0xff, i);
          while (ff >= 0 && ff + 1 < buf.length) {
            const next = buf[ff + 1] ?? 0;
            if (next !== 0x00 && (next < 0xd0 || next > 0xd7)) break;
            ff = buf.indexOf(0xff, ff + 2);
          }
          if (ff < 0) return;
          i = ff + 1;
          this.state = 'marker';
          break;
        }
        case 'marker': {
          const byte = buf[i++] ?? 0;
          if (byte === 0xff) break; // fill byte
          if (byte === EOI) this.found = true;
          else if (byte === 0x00 || isStandalone(byte)) this.state = 'data';
          else this.state = 'length1';
          break;
        }
        case 'length1':
          this.lengthHigh = buf[i++] ?? 0;
          this.state = 'length2';
          break;
        case 'length2': {
          this.remaining = ((this.lengthHigh << 8) | (buf[i++] ?? 0)) - 2;
          this.state = this.remaining > 0 ? 'skip' : 'data';
          break;
        }
        case 'skip': {
          const take = Math.min(this.remaining, buf.length - i);
          i += take;
          this.remaining -= take;
          if (this.remaining === 0) this.state = 'data';
          break;
        }
      }
    }
  }
}

interface Segment {
  marker: number;
  payload: Buffer;
}

async function readMarker(reader: ChunkReader): Promise<number> {
  const at = reader.position;
  const first = await reader.readOrFail(1, 'a marker');
  if (first[0] !== 0xff) {
    throw new MetadataError(
      'BAD_SEGMENT',
      `expected a JPEG marker at offset ${at}, found 0x${(first[0] ?? 0).toString(16)}`,
    );
  }
  let marker = 0xff;
  while (marker === 0xff) marker = (await reader.readOrFail(1, 'a marker'))[0] ?? 0; // fill bytes
  return marker;
}

async function readSegment(reader: ChunkReader, marker: number): Promise<Segment> {
  const at = reader.position - 2;
  const length = (await reader.readOrFail(2, `the length of segment 0x${marker.toString(16)}`)).readUInt16BE(
    0,
  );
  if (length < 2)
    throw new MetadataError(
      'BAD_SEGMENT',
      `segment 0x${marker.toString(16)} at offset ${at} has length ${length}`,
    );
  const payload = await reader.readOrFail(
    length - 2,
    `segment 0x${marker.toString(16)} at offset ${at} (length ${length})`,
  );
  return { marker, payload };
}

async function readSoi(reader: ChunkReader): Promise<void> {
  const soi = await reader.read(2);
  if (soi?.[0] !== 0xff || soi[1] !== SOI)
    throw new MetadataError('NOT_JPEG', 'not a JPEG file (no FF D8 start marker)');
}

/** Reads segments up to the first SOS and returns the metadata; stops the source there. */
export async function readJpegHead(
  source: AsyncIterable<unknown> | Iterable<unknown>,
  limits: MetadataLimits = defaultLimits,
): Promise<JpegMetadata> {
  const reader = new ChunkReader(source);
  try {
    await readSoi(reader);
    const collector = new MetadataCollector(limits);
    for (;;) {
      const marker = await readMarker(reader);
      if (marker === SOS || marker === EOI) return collector.finish();
      if (isStandalone(marker)) continue;
      const segment = await readSegment(reader, marker);
      collector.take(classify(marker, segment.payload), segment.payload);
    }
  } finally {
    await reader.close();
  }
}

/** Builds the metadata segments to write, from what the file held. */
/** New metadata segments, and optionally a new payload for the first Exif segment (in its place). */
export interface BuiltMetadata {
  segments: Buffer[];
  exif?: Buffer;
}

export type MetadataBuilder = (
  meta: JpegMetadata,
) => Buffer[] | BuiltMetadata | Promise<Buffer[] | BuiltMetadata>;

/**
 * Copies a JPEG from source to sink, replacing its XMP and Photoshop APP13 segments by the
 * segments build() returns. New segments go before the first non-APPn segment (DQT, SOF, ...),
 * so SOI, JFIF and Exif keep their places; tables are held back until SOS (bounded) in case
 * metadata follows them. From the first Exif segment on, segments are held too, so that build()
 * can replace the Exif payload in its place.
 */
export async function rewriteJpeg(
  source: AsyncIterable<unknown> | Iterable<unknown>,
  sink: ByteSink,
  build: MetadataBuilder,
  limits: MetadataLimits = defaultLimits,
): Promise<JpegMetadata> {
  const reader = new ChunkReader(source);
  try {
    await readSoi(reader);
    await sink.write(Buffer.from([0xff, SOI]));
    const collector = new MetadataCollector(limits);
    let held: Buffer[] = [];
    let heldBytes = 0;
    // Where the held Exif segment is, and where the held tables start (new segments go there).
    let exifAt: number | undefined;
    let tablesAt: number | undefined;
    let phase: 'app' | 'tables' | 'emitted' = 'app';
    let exifWritten = false;
    const emit = async (): Promise<'emitted'> => {
      const built = await build(collector.finish());
      const { segments, exif } = Array.isArray(built) ? { segments: built, exif: undefined } : built;
      if (exif && exifWritten)
        collector.meta.warnings.push(
          `EXIF ImageDescription, Artist and Copyright left unchanged: more than ${limits.maxHeldBytes} bytes of segments follow the Exif block`,
        );
      const appEnd = tablesAt ?? held.length;
      for (const [i, segment] of held.slice(0, appEnd).entries())
        await sink.write(i === exifAt && exif ? encodeSegment(APP1, exif) : segment);
      for (const segment of segments) await sink.write(segment);
      for (const segment of held.slice(appEnd)) await sink.write(segment);
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
        for (const segment of held) await sink.write(segment);
        held = [];
        heldBytes = 0;
        exifWritten = exifAt !== undefined;
        exifAt = undefined;
        return current;
      }
      return emit();
    };
    for (;;) {
      const marker = await readMarker(reader);
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
          continue;
        }
        await sink.write(encoded);
        continue;
      }
      const firstExif = kind === 'exif' && collector.meta.exif === undefined;
      if (collector.take(kind, segment.payload)) continue;
      if (phase === 'app' && !isAppOrComment(marker)) {
        phase = 'tables';
        tablesAt = held.length;
      }
      if (phase === 'app' && firstExif) exifAt = held.length;
      if (phase === 'app' && exifAt === undefined) {
        await sink.write(encoded);
        continue;
      }
      phase = await hold(encoded, phase);
    }
    if (phase !== 'emitted') await emit();
    const sos = await readSegment(reader, SOS);
    await sink.write(encodeSegment(SOS, sos.payload));
    const scanner = new EoiScanner();
    for (let chunk = await reader.nextChunk(); chunk; chunk = await reader.nextChunk()) {
      if (!scanner.found) scanner.feed(chunk);
      const backpressure = sink.write(chunk);
      if (backpressure) await backpressure;
    }
    if (!scanner.found)
      throw new MetadataError('TRUNCATED', 'JPEG image data ends without an EOI marker (file cut short?)');
    return collector.meta;
  } finally {
    await reader.close();
  }
}
