// XMP in JPEG: the standard APP1 packet (at most 65502 bytes) plus, for larger metadata,
// "extended XMP" split over further APP1 segments and tied to the standard packet by the MD5
// GUID in xmpNote:HasExtendedXMP (XMP spec part 3, 1.1.3.1).
import { createHash } from 'node:crypto';
import { catalog, localName } from './catalog.ts';
import { MetadataError } from './errors.ts';
import { EXTENDED_XMP_HEADER, encodeSegment, type JpegMetadata, XMP_HEADER } from './jpeg.ts';
import {
  emptyPacket,
  getProperty,
  setProperty,
  XMP_NOTE_NS,
  type XmpField,
  type XmpPacket,
} from './xmp-model.ts';
import { parseXmpPacket } from './xmp-packet.ts';
import { serializeXmpPacket } from './xmp-serialize.ts';

const APP1 = 0xe1;
/** Largest standard packet: 65535 - 2 (length) - 29 (header) - 2, as Adobe specifies. */
const MAX_STANDARD_PACKET = 65502;
const EXTENDED_CHUNK = 65400;
const PADDING = 2048;

function assembleExtended(meta: JpegMetadata, guid: string, warnings: string[]): Buffer | undefined {
  const chunks = meta.extendedXmp.filter((chunk) => chunk.guid === guid);
  const [first] = chunks;
  if (!first) {
    warnings.push('the XMP refers to extended XMP that is not in the file');
    return undefined;
  }
  const total = chunks.reduce((sum, chunk) => sum + chunk.data.length, 0);
  if (chunks.some((chunk) => chunk.fullLength !== first.fullLength) || total !== first.fullLength) {
    warnings.push('extended XMP is incomplete or inconsistent and was ignored');
    return undefined;
  }
  // total equals the declared length and is bounded by the collector, so allocating is safe.
  const out = Buffer.alloc(first.fullLength);
  for (const chunk of chunks) {
    if (chunk.offset + chunk.data.length > out.length) {
      warnings.push('extended XMP chunk lies outside the declared length; extended XMP ignored');
      return undefined;
    }
    chunk.data.copy(out, chunk.offset);
  }
  const digest = createHash('md5').update(out).digest('hex').toUpperCase();
  if (digest !== guid.toUpperCase()) warnings.push('extended XMP does not match its GUID (MD5); used anyway');
  return out;
}

/**
 * The XMP of a JPEG as one model: the standard packet plus extended XMP, if any. Invalid XMP
 * throws MetadataError; a missing or broken extended part is a warning.
 */
export function readJpegXmp(meta: JpegMetadata, warnings: string[]): XmpPacket | undefined {
  if (!meta.xmp) return undefined;
  const packet = parseXmpPacket(meta.xmp);
  const note = getProperty(packet, XMP_NOTE_NS, 'HasExtendedXMP');
  if (note?.kind === 'simple') {
    setProperty(packet, XMP_NOTE_NS, 'HasExtendedXMP', undefined);
    const bytes = assembleExtended(meta, note.value, warnings);
    if (bytes) {
      try {
        const extended = parseXmpPacket(bytes);
        for (const property of extended.properties) {
          if (!getProperty(packet, property.ns, property.name)) packet.properties.push(property);
        }
        for (const [uri, prefix] of extended.prefixes)
          if (!packet.prefixes.has(uri)) packet.prefixes.set(uri, prefix);
      } catch (error) {
        if (!(error instanceof MetadataError)) throw error;
        warnings.push(`extended XMP could not be read (${error.message}) and was dropped`);
      }
    }
  }
  return packet;
}

function packetBytes(packet: XmpPacket, padding: number): Buffer {
  return Buffer.from(serializeXmpPacket(packet, { padding }), 'utf8');
}

function standardSegment(packet: Buffer): Buffer {
  return encodeSegment(APP1, Buffer.concat([XMP_HEADER, packet]));
}

const catalogKeys = new Set(catalog.map((def) => `${def.namespace} ${localName(def)}`));

function sizeOf(field: XmpField): number {
  const probe = emptyPacket();
  probe.properties.push(field);
  return Buffer.byteLength(serializeXmpPacket(probe, { wrapper: false }), 'utf8');
}

/**
 * APP1 segments for a packet: one standard segment when it fits, else a standard packet that
 * keeps the IPTC properties plus extended XMP for the largest other properties.
 */
export function xmpSegments(packet: XmpPacket): Buffer[] {
  for (const padding of [PADDING, 0]) {
    const bytes = packetBytes(packet, padding);
    if (bytes.length <= MAX_STANDARD_PACKET) return [standardSegment(bytes)];
  }
  // Move properties out largest first, foreign ones before IPTC ones (which readers expect
  // in the standard packet), until the rest fits.
  const ranked = packet.properties
    .map((field) => ({ field, size: sizeOf(field), iptc: catalogKeys.has(`${field.ns} ${field.name}`) }))
    .sort((a, b) => Number(a.iptc) - Number(b.iptc) || b.size - a.size);
  const main: XmpPacket = { ...packet, properties: [...packet.properties] };
  const extended: XmpPacket = { ...packet, properties: [] };
  const placeholder = 'D41D8CD98F00B204E9800998ECF8427E'; // same length as the real GUID
  for (const { field } of ranked) {
    const probe = {
      ...main,
      properties: [
        ...main.properties,
        { ns: XMP_NOTE_NS, name: 'HasExtendedXMP', node: { kind: 'simple' as const, value: placeholder } },
      ],
    };
    if (packetBytes(probe, 0).length <= MAX_STANDARD_PACKET) break;
    main.properties.splice(main.properties.indexOf(field), 1);
    extended.properties.push(field);
  }
  const extendedBytes = Buffer.from(serializeXmpPacket(extended, { wrapper: false }), 'utf8');
  const guid = createHash('md5').update(extendedBytes).digest('hex').toUpperCase();
  setProperty(main, XMP_NOTE_NS, 'HasExtendedXMP', { kind: 'simple', value: guid });
  let mainBytes = packetBytes(main, PADDING);
  if (mainBytes.length > MAX_STANDARD_PACKET) mainBytes = packetBytes(main, 0);
  if (mainBytes.length > MAX_STANDARD_PACKET) {
    throw new MetadataError(
      'METADATA_TOO_LARGE',
      'a single XMP property is too large for a JPEG XMP segment',
    );
  }
  const segments = [standardSegment(mainBytes)];
  for (let offset = 0; offset < extendedBytes.length; offset += EXTENDED_CHUNK) {
    const header = Buffer.alloc(40);
    header.write(guid, 0, 32, 'latin1');
    header.writeUInt32BE(extendedBytes.length, 32);
    header.writeUInt32BE(offset, 36);
    segments.push(
      encodeSegment(
        APP1,
        Buffer.concat([EXTENDED_XMP_HEADER, header, extendedBytes.subarray(offset, offset + EXTENDED_CHUNK)]),
      ),
    );
  }
  return segments;
}
