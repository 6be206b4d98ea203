// Writes the XMP data model as a packet in the canonical form Adobe's toolkit and ExifTool
// write: one rdf:Description, arrays as rdf:Bag/Seq/Alt, structures with
// rdf:parseType="Resource", qualifiers through rdf:value. Prefixes the input used are kept.
import { catalogNamespaces } from './catalog.ts';
import { sanitizeXmlText } from './xml-parser.ts';
import { RDF_NS, XMP_META_NS, type XmpField, type XmpNode, type XmpPacket } from './xmp-model.ts';

export interface SerializeOptions {
  /** Bytes of whitespace before the trailer, so editors can grow the packet in place. Default 2048. */
  padding?: number;
  /** Write the <?xpacket?> wrapper. Default true. */
  wrapper?: boolean;
  /** x:xmptk value when the packet has none. */
  toolkit?: string;
}

const DEFAULT_TOOLKIT = 'PhotoRelay XMP';

const wellKnownPrefixes: Record<string, string> = {
  ...Object.fromEntries(Object.entries(catalogNamespaces).map(([prefix, uri]) => [uri, prefix])),
  'http://ns.adobe.com/xap/1.0/mm/': 'xmpMM',
  'http://ns.adobe.com/xap/1.0/sType/ResourceEvent#': 'stEvt',
  'http://ns.adobe.com/xap/1.0/sType/ResourceRef#': 'stRef',
  'http://ns.adobe.com/tiff/1.0/': 'tiff',
  'http://cipa.jp/exif/1.0/': 'exifEX',
  'http://ns.adobe.com/exif/1.0/aux/': 'aux',
  'http://ns.adobe.com/camera-raw-settings/1.0/': 'crs',
  'http://ns.adobe.com/xmp/note/': 'xmpNote',
  'http://ns.adobe.com/lightroom/1.0/': 'lr',
  'http://ns.camerabits.com/photomechanic/1.0/': 'photomechanic',
  'http://www.metadataworkinggroup.com/schemas/regions/': 'mwg-rs',
  'http://ns.adobe.com/xmp/sType/Area#': 'stArea',
  'http://ns.adobe.com/xap/1.0/sType/Dimensions#': 'stDim',
  'http://ns.adobe.com/pdf/1.3/': 'pdf',
};

const reservedPrefixes = new Set(['rdf', 'x', 'xml', 'xmlns']);
const validPrefix = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

// What escapeText/escapeAttr change, plus what sanitizeXmlText removes or replaces: one scan
// finds the common case, a value that goes out as it is.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the characters XML forbids is the point
const textNeedsWork = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const attrNeedsWork = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

function escapeText(value: string): string {
  if (!textNeedsWork.test(value)) return value;
  return sanitizeXmlText(value).replace(/[&<>\r]/g, (ch) =>
    ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : '&#xD;',
  );
}

function escapeAttr(value: string): string {
  if (!attrNeedsWork.test(value)) return value;
  return sanitizeXmlText(value).replace(/[&<>"\t\n\r]/g, (ch) => {
    switch (ch) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case '\t':
        return '&#x9;';
      case '\n':
        return '&#xA;';
      default:
        return '&#xD;';
    }
  });
}

function collectNamespaces(fields: readonly XmpField[], into: Set<string>): void {
  for (const field of fields) {
    into.add(field.ns);
    collectNodeNamespaces(field.node, into);
  }
}

function collectNodeNamespaces(node: XmpNode, into: Set<string>): void {
  if (node.qualifiers) collectNamespaces(node.qualifiers, into);
  if (node.kind === 'array') for (const item of node.items) collectNodeNamespaces(item, into);
  if (node.kind === 'struct') collectNamespaces(node.fields, into);
}

/** A distinct prefix for every namespace: the one the input used, a well-known one, or nsN. */
function assignPrefixes(packet: XmpPacket): Map<string, string> {
  const uris = new Set<string>();
  collectNamespaces(packet.properties, uris);
  uris.delete(RDF_NS);
  const byUri = new Map<string, string>();
  const taken = new Set(reservedPrefixes);
  let counter = 1;
  for (const uri of uris) {
    const candidates = [packet.prefixes.get(uri), wellKnownPrefixes[uri]];
    let prefix = candidates.find(
      (candidate) => candidate && validPrefix.test(candidate) && !taken.has(candidate),
    );
    while (!prefix) {
      const generated = `ns${counter++}`;
      if (!taken.has(generated)) prefix = generated;
    }
    taken.add(prefix);
    byUri.set(uri, prefix);
  }
  return byUri;
}

/** Indentation by depth, made once (values nest a few levels). */
const indents = Array.from({ length: 16 }, (_, depth) => ' '.repeat(depth));

/**
 * The text is one string grown piece by piece (a rope V8 flattens once at the end): joining an
 * array of the pieces, many of them ropes themselves, took twice as long.
 */
class Writer {
  private text = '';

  constructor(private readonly prefixes: Map<string, string>) {}

  qname(ns: string, name: string): string {
    return ns === RDF_NS ? `rdf:${name}` : `${this.prefixes.get(ns)}:${name}`;
  }

  line(indent: number, text: string): void {
    this.text += `${indents[indent] ?? ' '.repeat(indent)}${text}\n`;
  }

  /** One element for a value: a property, a field, a qualifier or an array item (rdf:li). */
  value(indent: number, tag: string, node: XmpNode): void {
    const lang = node.lang === undefined ? '' : ` xml:lang="${escapeAttr(node.lang)}"`;
    if (node.qualifiers && node.qualifiers.length > 0) {
      // General qualifiers need the rdf:value form (XMP part 1, 7.9.2.5).
      this.line(indent, `<${tag}${lang} rdf:parseType="Resource">`);
      this.value(indent + 1, 'rdf:value', { ...node, lang: undefined, qualifiers: undefined });
      for (const qualifier of node.qualifiers) {
        this.value(indent + 1, this.qname(qualifier.ns, qualifier.name), qualifier.node);
      }
      this.line(indent, `</${tag}>`);
      return;
    }
    if (node.kind === 'simple') {
      if (node.isUri) this.line(indent, `<${tag}${lang} rdf:resource="${escapeAttr(node.value)}"/>`);
      else this.line(indent, `<${tag}${lang}>${escapeText(node.value)}</${tag}>`);
      return;
    }
    if (node.kind === 'array') {
      this.line(indent, `<${tag}${lang}>`);
      if (node.items.length === 0) {
        this.line(indent + 1, `<rdf:${node.form}/>`);
      } else {
        this.line(indent + 1, `<rdf:${node.form}>`);
        for (const item of node.items) this.value(indent + 2, 'rdf:li', item);
        this.line(indent + 1, `</rdf:${node.form}>`);
      }
      this.line(indent, `</${tag}>`);
      return;
    }
    if (node.fields.length === 0) {
      this.line(indent, `<${tag}${lang} rdf:parseType="Resource"/>`);
      return;
    }
    this.line(indent, `<${tag}${lang} rdf:parseType="Resource">`);
    for (const field of node.fields) this.value(indent + 1, this.qname(field.ns, field.name), field.node);
    this.line(indent, `</${tag}>`);
  }

  raw(text: string): void {
    this.text += text;
  }

  toString(): string {
    return this.text;
  }
}

/** Whitespace lines of 100 bytes, as Adobe's toolkit writes them. */
function xmpPadding(bytes: number): string {
  if (bytes <= 0) return '';
  const fullLines = Math.floor(bytes / 100);
  const rest = bytes % 100;
  return `${`${' '.repeat(99)}\n`.repeat(fullLines)}${rest > 0 ? `${' '.repeat(rest - 1)}\n` : ''}`;
}

const XPACKET_ID = 'W5M0MpCehiHzreSzNTczkc9d';

const XPACKET_BEGIN = '<?xpacket begin="';
const BYTE_ORDER_MARK = Buffer.from('\uFEFF', 'utf8');

export function serializeXmpPacket(packet: XmpPacket, options: SerializeOptions = {}): string {
  return serialize(packet, options, '\uFEFF');
}

/**
 * The packet as UTF-8 bytes, the same bytes as `Buffer.from(serializeXmpPacket(...))`. The text
 * is built without the wrapper's byte order mark, which is put in as bytes: with it the whole
 * packet would be a two-byte string (most packets have no other character above U+00FF), and
 * encoding one costs more than encoding a one-byte string.
 *
 * Encoded with TextEncoder.encodeInto into a buffer kept between packets, then copied out once:
 * 18 us for the 33 KB reference packet as a two-byte string, where V8's Buffer.from takes 38 us
 * and ICU (through a UTF-16 copy of the text) 32 us, each with a new 66 KB buffer. Lone
 * surrogates (which the serializer replaces anyway) become U+FFFD, as with Buffer.from.
 */
export function serializeXmpPacketBytes(packet: XmpPacket, options: SerializeOptions = {}): Buffer {
  const text = serialize(packet, options, '');
  const mark = options.wrapper === false ? 0 : BYTE_ORDER_MARK.length;
  const most = mark + text.length * 3; // UTF-8 takes at most 3 bytes per UTF-16 unit
  const buffer = most <= SCRATCH_MAX ? scratchOf(most) : Buffer.allocUnsafe(most);
  const { written } = utf8.encodeInto(text, buffer.subarray(mark));
  if (mark > 0) {
    const at = XPACKET_BEGIN.length; // ASCII: as many bytes as characters
    buffer.copyWithin(0, mark, mark + at);
    BYTE_ORDER_MARK.copy(buffer, at);
  }
  return Buffer.from(buffer.subarray(0, mark + written));
}

const utf8 = new TextEncoder();
/** Largest buffer kept between packets (extended XMP can be larger: it gets one of its own). */
const SCRATCH_MAX = 1024 * 1024;
let scratch = Buffer.alloc(0);
function scratchOf(size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, 64 * 1024));
  return scratch;
}

function serialize(packet: XmpPacket, options: SerializeOptions, byteOrderMark: string): string {
  const prefixes = assignPrefixes(packet);
  const out = new Writer(prefixes);
  const wrapper = options.wrapper ?? true;
  if (wrapper) out.raw(`${XPACKET_BEGIN}${byteOrderMark}" id="${XPACKET_ID}"?>\n`);
  const toolkit = packet.toolkit ?? options.toolkit ?? DEFAULT_TOOLKIT;
  out.line(0, `<x:xmpmeta xmlns:x="${XMP_META_NS}" x:xmptk="${escapeAttr(toolkit)}">`);
  out.line(1, `<rdf:RDF xmlns:rdf="${RDF_NS}">`);
  const declarations = [...prefixes]
    .map(([uri, prefix]) => `\n    xmlns:${prefix}="${escapeAttr(uri)}"`)
    .join('');
  if (packet.properties.length === 0) {
    out.line(2, `<rdf:Description rdf:about="${escapeAttr(packet.about)}"${declarations}/>`);
  } else {
    out.line(2, `<rdf:Description rdf:about="${escapeAttr(packet.about)}"${declarations}>`);
    for (const property of packet.properties)
      out.value(3, out.qname(property.ns, property.name), property.node);
    out.line(2, '</rdf:Description>');
  }
  out.line(1, '</rdf:RDF>');
  out.line(0, '</x:xmpmeta>');
  if (wrapper) {
    out.raw(xmpPadding(options.padding ?? 2048));
    out.raw('<?xpacket end="w"?>');
  }
  return out.toString();
}

/**
 * UTF-8 bytes each top-level property takes in the serialized packet, measured once each, so
 * splitting a large packet into standard and extended XMP stays linear.
 */
export function propertySizes(packet: XmpPacket): number[] {
  const prefixes = assignPrefixes(packet);
  return packet.properties.map((property) => {
    const out = new Writer(prefixes);
    out.value(3, out.qname(property.ns, property.name), property.node);
    return Buffer.byteLength(out.toString(), 'utf8');
  });
}
