// XMP in JPEG: the standard APP1 packet (at most 65502 bytes) plus, for larger metadata,
// "extended XMP" split over further APP1 segments and tied to the standard packet by the MD5
// GUID in xmpNote:HasExtendedXMP (XMP spec part 3, 1.1.3.1).
import { createHash } from 'node:crypto';
import { catalog, localName } from './catalog.ts';
import { MetadataError } from './errors.ts';
import { EXTENDED_XMP_HEADER, encodeSegment, type JpegMetadata, XMP_HEADER } from './jpeg.ts';
import { mendXmpText } from './xmp-lenient.ts';
import { getProperty, setProperty, XMP_NOTE_NS, type XmpField, type XmpPacket } from './xmp-model.ts';
import { decodeXmpForParsing, parseXmpPacket } from './xmp-packet.ts';
import { propertySizes, serializeXmpPacketBytes } from './xmp-serialize.ts';

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

/** A packet, or undefined with a warning when it cannot be read (it is then rebuilt). */
function readPacket(bytes: Buffer, what: string, warnings: string[]): XmpPacket | undefined {
  try {
    return parseXmpPacket(bytes);
  } catch (error) {
    // Too many properties is refused, not dropped: the caller reports it.
    if (!(error instanceof MetadataError) || error.code === 'METADATA_TOO_LARGE') throw error;
    const mended =
      error.code === 'INVALID_XML' ? readMended(bytes, what, error.message, warnings) : undefined;
    if (mended) return mended;
    warnings.push(
      `${what} could not be read (${error.message}) and was dropped; its IPTC-IIM and EXIF values were kept`,
    );
    return undefined;
  }
}

/** A packet that is not well-formed, read as ExifTool reads it (xmp-lenient.ts), with a warning. */
function readMended(bytes: Buffer, what: string, fault: string, warnings: string[]): XmpPacket | undefined {
  const mended = mendXmpText(decodeXmpForParsing(bytes));
  if (!mended) return undefined;
  try {
    const packet = parseXmpPacket(mended.text);
    warnings.push(
      `${what} is not well-formed XML (${fault}); read as ExifTool reads it: ${mended.mended.join(', ')}`,
    );
    return packet;
  } catch (error) {
    if (error instanceof MetadataError && error.code === 'METADATA_TOO_LARGE') throw error;
    return undefined;
  }
}

/** Adds the properties `into` lacks (the first packet wins, as with extended XMP). */
function mergeInto(into: XmpPacket, from: XmpPacket): void {
  const known = new Set(into.properties.map((property) => `${property.ns} ${property.name}`));
  for (const property of from.properties) {
    if (property.ns === XMP_NOTE_NS && property.name === 'HasExtendedXMP') continue;
    if (!known.has(`${property.ns} ${property.name}`)) into.properties.push(property);
  }
  for (const [uri, prefix] of from.prefixes) if (!into.prefixes.has(uri)) into.prefixes.set(uri, prefix);
}

/**
 * The XMP of a JPEG as one model: the standard packet plus extended XMP, plus what a second
 * standard packet or packets under legacy headers add. A packet that cannot be read is dropped
 * with a warning (ExifTool does the same when it writes), as is a missing or broken extended part.
 */
export function readJpegXmp(meta: JpegMetadata, warnings: string[]): XmpPacket | undefined {
  const packet = meta.xmp ? readPacket(meta.xmp, 'the XMP packet', warnings) : undefined;
  const note = packet && getProperty(packet, XMP_NOTE_NS, 'HasExtendedXMP');
  if (packet && note?.kind === 'simple') {
    setProperty(packet, XMP_NOTE_NS, 'HasExtendedXMP', undefined);
    const bytes = assembleExtended(meta, note.value, warnings);
    const extended = bytes && readPacket(bytes, 'extended XMP', warnings);
    if (extended) mergeInto(packet, extended);
  }
  let result = packet;
  for (const bytes of meta.extraXmp) {
    const extra = readPacket(bytes, 'a further XMP packet (second or legacy header)', warnings);
    if (!extra) continue;
    if (result) mergeInto(result, extra);
    else {
      result = extra;
      setProperty(result, XMP_NOTE_NS, 'HasExtendedXMP', undefined);
    }
  }
  return result;
}

function packetBytes(packet: XmpPacket, padding: number): Buffer {
  return serializeXmpPacketBytes(packet, { padding });
}

function standardSegment(packet: Buffer): Buffer {
  return encodeSegment(APP1, Buffer.concat([XMP_HEADER, packet]));
}

const catalogKeys = new Set(catalog.map((def) => `${def.namespace} ${localName(def)}`));

const PLACEHOLDER_GUID = 'D41D8CD98F00B204E9800998ECF8427E'; // same length as the real GUID
/** Room for prefixes that change when properties move out (generated ones can grow a digit). */
const SPLIT_MARGIN = 1024;

const noteField = (guid: string): XmpField => ({
  ns: XMP_NOTE_NS,
  name: 'HasExtendedXMP',
  node: { kind: 'simple', value: guid },
});

/**
 * APP1 segments for a packet: one standard segment when it fits, else a standard packet that
 * keeps the IPTC properties plus extended XMP for the largest other properties. Each property's
 * size is measured once, so the split is linear in the packet size.
 */
export function xmpSegments(packet: XmpPacket): Buffer[] {
  for (const padding of [PADDING, 0]) {
    const bytes = packetBytes(packet, padding);
    if (bytes.length <= MAX_STANDARD_PACKET) return [standardSegment(bytes)];
  }
  // Move properties out largest first, foreign ones before IPTC ones (which readers expect
  // in the standard packet), until the rest fits.
  const sizes = propertySizes(packet);
  const ranked = packet.properties
    .map((field, i) => ({ field, size: sizes[i] ?? 0, iptc: catalogKeys.has(`${field.ns} ${field.name}`) }))
    .sort((a, b) => Number(a.iptc) - Number(b.iptc) || b.size - a.size);
  let size = packetBytes(
    { ...packet, properties: [...packet.properties, noteField(PLACEHOLDER_GUID)] },
    0,
  ).length;
  const moved = new Set<XmpField>();
  for (const { field, size: own } of ranked) {
    if (size <= MAX_STANDARD_PACKET - SPLIT_MARGIN) break;
    moved.add(field);
    size -= own;
  }
  const standard: XmpPacket = {
    ...packet,
    properties: packet.properties.filter((field) => !moved.has(field)),
  };
  const extended: XmpPacket = {
    ...packet,
    properties: ranked.filter((r) => moved.has(r.field)).map((r) => r.field),
  };
  const extendedBytes = serializeXmpPacketBytes(extended, { wrapper: false });
  const guid = createHash('md5').update(extendedBytes).digest('hex').toUpperCase();
  setProperty(standard, XMP_NOTE_NS, 'HasExtendedXMP', { kind: 'simple', value: guid });
  let mainBytes = packetBytes(standard, PADDING);
  if (mainBytes.length > MAX_STANDARD_PACKET) mainBytes = packetBytes(standard, 0);
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
