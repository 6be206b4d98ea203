// JPEG segments: markers, reading one segment, telling metadata segments apart and collecting
// them (within limits). Used by the head reader here and by the rewriter in jpeg.ts.
import { ChunkReader } from './byte-stream.ts';
import { MetadataError } from './errors.ts';
import { EXIF_HEADER } from './exif.ts';
import { PHOTOSHOP_HEADER } from './iim.ts';

export const XMP_HEADER = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
export const EXTENDED_XMP_HEADER = Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1');

export const SOI = 0xd8;
export const EOI = 0xd9;
export const SOS = 0xda;
export const APP1 = 0xe1;
export const APP13 = 0xed;
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
  /** Further XMP packets: a second standard packet, packets under a legacy header. Merged in. */
  extraXmp: Buffer[];
  /** Resource bytes of APP13 segments with the legacy "Adobe_Photoshop2.5:" header. */
  legacyPhotoshop?: Buffer;
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
export function isStandalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

export function isAppOrComment(marker: number): boolean {
  return (marker >= 0xe0 && marker <= 0xef) || marker === COM;
}

export type Kind = 'exif' | 'xmp' | 'extendedXmp' | 'legacyXmp' | 'photoshop' | 'legacyPhotoshop' | 'other';

const LEGACY_PHOTOSHOP_HEADER = Buffer.from('Adobe_Photoshop2.5:', 'latin1');
/** The legacy header is followed by 8 more bytes before the resources (as ExifTool reads it). */
const LEGACY_PHOTOSHOP_SKIP = 27;
const packetStarts = ['<?xpacket', '<x:xmpmeta', '<x:xapmeta', '<rdf:RDF'];

/** Where the XML of an APP1 XMP packet under a non-standard header starts (as ExifTool finds them). */
function legacyXmpStart(payload: Buffer): number | undefined {
  const prefix = payload.toString('latin1', 0, 4);
  const head = payload.toString('latin1', 0, Math.min(payload.length, 512));
  const starts = packetStarts.map((start) => head.indexOf(start)).filter((at) => at >= 0);
  if (starts.length === 0) return undefined;
  if (prefix === 'http' || prefix === 'XMP\0' || head.includes('<?xpacket')) return Math.min(...starts);
  return undefined;
}

export function classify(marker: number, payload: Buffer): Kind {
  if (marker === APP1) {
    if (startsWith(payload, EXIF_HEADER)) return 'exif';
    if (startsWith(payload, XMP_HEADER)) return 'xmp';
    if (startsWith(payload, EXTENDED_XMP_HEADER)) return 'extendedXmp';
    if (legacyXmpStart(payload) !== undefined) return 'legacyXmp';
  }
  if (marker === APP13 && startsWith(payload, PHOTOSHOP_HEADER)) return 'photoshop';
  if (
    marker === APP13 &&
    startsWith(payload, LEGACY_PHOTOSHOP_HEADER) &&
    payload.length >= LEGACY_PHOTOSHOP_SKIP
  )
    return 'legacyPhotoshop';
  return 'other';
}

/** Collects metadata segments within the limits. */
export class MetadataCollector {
  readonly meta: JpegMetadata = { extendedXmp: [], extraXmp: [], warnings: [] };
  private extendedBytes = 0;
  private readonly photoshopParts: Buffer[] = [];
  private readonly legacyParts: Buffer[] = [];
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
        // A second standard packet is merged into the first (readers differ on which they use).
        if (this.meta.xmp) this.meta.extraXmp.push(Buffer.from(payload.subarray(XMP_HEADER.length)));
        else this.meta.xmp = Buffer.from(payload.subarray(XMP_HEADER.length));
        return true;
      case 'legacyXmp':
        this.meta.extraXmp.push(Buffer.from(payload.subarray(legacyXmpStart(payload))));
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
      case 'legacyPhotoshop':
        this.photoshopBytes += payload.length;
        if (this.photoshopBytes > this.limits.maxPhotoshopBytes) {
          throw new MetadataError(
            'METADATA_TOO_LARGE',
            `Photoshop APP13 data exceeds ${this.limits.maxPhotoshopBytes} bytes`,
          );
        }
        this.legacyParts.push(Buffer.from(payload.subarray(LEGACY_PHOTOSHOP_SKIP)));
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
    if (this.legacyParts.length > 0) this.meta.legacyPhotoshop = Buffer.concat(this.legacyParts);
    return this.meta;
  }
}

export interface Segment {
  marker: number;
  payload: Buffer;
}

/** Bytes between segments that are skipped (and kept) before the file is refused. */
const MAX_SKIPPED = 64 * 1024;

export interface Marker {
  marker: number;
  /** Bytes found between the previous segment and this marker (kept as they are). */
  skipped?: Buffer;
}

/**
 * The next marker. Bytes other than FF before it (padding some writers leave between segments)
 * are skipped as ExifTool does, and returned so the caller can keep them; so is `FF 00`, which is
 * no marker (a stuffed byte, as in scan data) and must not be read as a segment with a length.
 */
export async function readMarker(reader: ChunkReader): Promise<Marker> {
  const at = reader.position;
  const skipped: Buffer[] = [];
  let skippedBytes = 0;
  for (;;) {
    const bytes = await reader.readUntil(0xff, MAX_SKIPPED + 1 - skippedBytes);
    skipped.push(bytes);
    skippedBytes += bytes.length;
    if (skippedBytes > MAX_SKIPPED)
      throw new MetadataError('BAD_SEGMENT', `no JPEG marker within ${MAX_SKIPPED} bytes after offset ${at}`);
    await reader.readOrFail(1, 'a marker');
    let fill = 0;
    let marker = 0xff;
    for (; marker === 0xff; fill++) marker = (await reader.readOrFail(1, 'a marker'))[0] ?? 0; // fill bytes
    if (marker !== 0x00)
      return skippedBytes > 0 ? { marker, skipped: Buffer.concat(skipped, skippedBytes) } : { marker };
    const stuffed = Buffer.alloc(fill + 1, 0xff);
    stuffed[fill] = 0x00;
    skipped.push(stuffed);
    skippedBytes += stuffed.length;
  }
}

export async function readSegment(reader: ChunkReader, marker: number): Promise<Segment> {
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

export async function readSoi(reader: ChunkReader): Promise<void> {
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
      const { marker } = await readMarker(reader);
      if (marker === SOS || marker === EOI) return collector.finish();
      if (isStandalone(marker)) continue;
      const segment = await readSegment(reader, marker);
      collector.take(classify(marker, segment.payload), segment.payload);
    }
  } finally {
    await reader.close();
  }
}
