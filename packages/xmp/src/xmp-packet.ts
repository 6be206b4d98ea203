// Reads an XMP packet (RDF/XML) into the XMP data model. Every RDF form XMP allows gives the
// same model: property attributes, nested rdf:Description, rdf:parseType="Resource", rdf:value
// with qualifiers, several rdf:Description elements, rdf:resource. Properties we do not know
// are kept as they are, so writing the packet back loses nothing.
import { catalogNamespaces } from './catalog.ts';
import { MetadataError } from './errors.ts';
import {
  childElements,
  NO_ATTRIBUTES,
  parseXml,
  textContent,
  XML_NS,
  type XmlAttribute,
  type XmlElement,
} from './xml-parser.ts';
import {
  emptyPacket,
  findField,
  RDF_NS,
  XMP_META_NS,
  XMP_NOTE_NS,
  type XmpField,
  type XmpNode,
  type XmpPacket,
} from './xmp-model.ts';

const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const RDF_SYNTAX_ATTRS = new Set([
  'about',
  'ID',
  'nodeID',
  'parseType',
  'resource',
  'datatype',
  'bagID',
  'aboutEach',
]);

function invalid(message: string): never {
  throw new MetadataError('INVALID_XMP', message);
}

function hasPrefix(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/** One strict decoder per encoding, made once (decode() without a stream option keeps no state). */
const decoders = new Map<string, TextDecoder>();
function decoder(encoding: string): TextDecoder {
  let made = decoders.get(encoding);
  if (!made) {
    made = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
    decoders.set(encoding, made);
  }
  return made;
}

const XPACKET_BEGIN = [...Buffer.from('<?xpacket begin=', 'latin1')];

/** Where the UTF-8 byte order mark inside a leading `<?xpacket begin="…"` is, or -1. */
function xpacketMark(bytes: Uint8Array): number {
  const at = XPACKET_BEGIN.length + 1; // after the opening quote
  if (bytes.length < at + 4 || !hasPrefix(bytes, XPACKET_BEGIN)) return -1;
  const quote = bytes[at - 1];
  if (quote !== 0x22 && quote !== 0x27) return -1;
  return bytes[at] === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf && bytes[at + 3] === quote
    ? at
    : -1;
}

/**
 * Bytes of a packet to text, exactly as found. UTF-8 is the norm; UTF-16 (found in old files)
 * is recognised by its byte order mark or by '<' encoded on two bytes. Invalid UTF-8 is refused.
 */
export function decodeXmpBytes(bytes: Uint8Array): string {
  return decode(bytes, false);
}

/**
 * Bytes of a packet to text for the parser: as decodeXmpBytes, but the byte order mark in
 * <?xpacket begin="?"?> is read as a space. It is most packets' only character above U+00FF;
 * decoded as it is, it makes the whole text a two-byte string, and every name, value,
 * comparison and map lookup of the parser, and the serializer after it, pay for that. The
 * instruction's data is not read; one character for one, so offsets in error messages stay.
 */
export function decodeXmpForParsing(bytes: Uint8Array): string {
  return decode(bytes, true);
}

function decode(bytes: Uint8Array, markAsSpace: boolean): string {
  let encoding = 'utf-8';
  let skip = 0;
  if (hasPrefix(bytes, [0xfe, 0xff])) [encoding, skip] = ['utf-16be', 2];
  else if (hasPrefix(bytes, [0xff, 0xfe])) [encoding, skip] = ['utf-16le', 2];
  else if (hasPrefix(bytes, [0x00, 0x3c])) encoding = 'utf-16be';
  else if (hasPrefix(bytes, [0x3c, 0x00])) encoding = 'utf-16le';
  else if (hasPrefix(bytes, [0xef, 0xbb, 0xbf])) skip = 3;
  // Some writers pad the packet with NUL characters; they are not XML.
  const unit = encoding === 'utf-8' ? 1 : 2;
  let end = bytes.length - ((bytes.length - skip) % unit);
  while (end - unit >= skip && bytes.subarray(end - unit, end).every((byte) => byte === 0)) end -= unit;
  try {
    const body = bytes.subarray(skip, end);
    if (markAsSpace && encoding === 'utf-8') {
      const mark = xpacketMark(body);
      if (mark >= 0)
        return `${decoder(encoding).decode(body.subarray(0, mark))} ${decoder(encoding).decode(body.subarray(mark + 3))}`;
    }
    return decoder(encoding).decode(body);
  } catch {
    throw new MetadataError(
      'INVALID_UTF8',
      `XMP packet is not valid ${encoding === 'utf-8' ? 'UTF-8' : encoding.toUpperCase()}`,
    );
  }
}

function isRdf(element: XmlElement, local: string): boolean {
  return element.ns === RDF_NS && element.local === local;
}

function findRdfRoot(element: XmlElement): XmlElement | undefined {
  if (isRdf(element, 'RDF')) return element;
  for (const child of childElements(element)) {
    const found = findRdfRoot(child);
    if (found) return found;
  }
  return undefined;
}

function rdfAttr(element: XmlElement, local: string): string | undefined {
  // Old toolkits wrote about="" without the rdf prefix.
  return element.attributes.find(
    (attr) => (attr.ns === RDF_NS || (attr.ns === '' && local === 'about')) && attr.local === local,
  )?.value;
}

/** Attributes that stand for properties or fields (not RDF syntax, xml:*, xmlns). */
function propertyAttributes(element: XmlElement): XmlAttribute[] {
  return element.attributes.filter((attr) => {
    if (attr.ns === XMLNS_NS || attr.ns === XML_NS) return false;
    if (attr.ns === RDF_NS) return !RDF_SYNTAX_ATTRS.has(attr.local) && attr.local !== 'type';
    if (attr.ns === '') return attr.local !== 'about';
    return true;
  });
}

/** Values read from the packet being parsed (parsing is synchronous: one packet at a time). */
let valuesRead = 0;

/** Counts one more value; beyond MAX_XMP_VALUES the packet is refused before more is read. */
function countValue(): void {
  if (++valuesRead > MAX_XMP_VALUES)
    throw new MetadataError('METADATA_TOO_LARGE', `the XMP holds more than ${MAX_XMP_VALUES} values`);
}

function fieldFromAttribute(attr: XmlAttribute): XmpField {
  if (attr.ns === '') invalid(`attribute ${attr.qname} has no namespace`);
  countValue();
  return { ns: attr.ns, name: attr.local, node: { kind: 'simple', value: attr.value } };
}

function withLang(node: XmpNode, lang: string | undefined): XmpNode {
  if (lang !== undefined && node.lang === undefined) node.lang = lang;
  return node;
}

/** A structure whose fields include rdf:value is a qualified value: the value plus qualifiers. */
function structOrQualified(fields: XmpField[], lang: string | undefined): XmpNode {
  const value = findField(fields, RDF_NS, 'value');
  if (!value) return withLang({ kind: 'struct', fields }, lang);
  const qualifiers = fields.filter((field) => field !== value);
  const node = withLang(value.node, lang);
  if (qualifiers.length > 0) node.qualifiers = [...(node.qualifiers ?? []), ...qualifiers];
  return node;
}

function fieldsOfElements(elements: readonly XmlElement[]): XmpField[] {
  const fields: XmpField[] = [];
  for (const child of elements) {
    if (child.ns === '') invalid(`element <${child.qname}> has no namespace`);
    if (child.ns === RDF_NS && child.local !== 'value') invalid(`unexpected <${child.qname}> in a structure`);
    fields.push({ ns: child.ns, name: child.local, node: parseValue(child) });
  }
  return fields;
}

/** rdf:Description (or a typed node) used as a value: attributes and children are its fields. */
function parseNodeElement(node: XmlElement, lang: string | undefined): XmpNode {
  const fields = [
    ...propertyAttributes(node).map(fieldFromAttribute),
    ...fieldsOfElements(childElements(node)),
  ];
  return structOrQualified(fields, lang);
}

function parseArray(container: XmlElement, lang: string | undefined): XmpNode {
  const items: XmpNode[] = [];
  for (const li of childElements(container)) {
    if (!isRdf(li, 'li')) invalid(`<${li.qname}> inside rdf:${container.local}, expected rdf:li`);
    items.push(parseValue(li));
  }
  return withLang({ kind: 'array', form: container.local as 'Bag' | 'Seq' | 'Alt', items }, lang);
}

/** What parseValue needs of an element, found in one pass over its attributes and children. */
interface ValueParts {
  lang: string | undefined;
  parseType: string | undefined;
  resource: string | undefined;
  attrs: readonly XmlAttribute[];
  children: readonly XmlElement[];
  /** Text children that are not all whitespace. */
  hasText: boolean;
}

function valueParts(element: XmlElement): ValueParts {
  let lang: string | undefined;
  let parseType: string | undefined;
  let resource: string | undefined;
  let attrs: XmlAttribute[] | undefined;
  for (const attr of element.attributes) {
    const { ns, local } = attr;
    let isField = false;
    if (ns === XML_NS) {
      if (local === 'lang' && lang === undefined) lang = attr.value;
    } else if (ns === RDF_NS) {
      if (local === 'parseType') parseType ??= attr.value;
      else if (local === 'resource') resource ??= attr.value;
      else isField = !RDF_SYNTAX_ATTRS.has(local) && local !== 'type';
    } else if (ns === '') isField = local !== 'about';
    else isField = ns !== XMLNS_NS;
    if (isField) {
      attrs ??= [];
      attrs.push(attr);
    }
  }
  // Mostly elements alone (whitespace beside them is not kept): then they are the children as they are.
  let textNodes = 0;
  let hasText = false;
  for (const child of element.children) {
    if (child.kind === 'element') continue;
    textNodes++;
    if (!hasText && child.value.trim() !== '') hasText = true;
  }
  const children =
    textNodes === 0
      ? (element.children as XmlElement[])
      : element.children.filter((child): child is XmlElement => child.kind === 'element');
  return { lang, parseType, resource, attrs: attrs ?? NO_ATTRIBUTES, children, hasText };
}

/** The value of a property element, a structure field, a qualifier or an array item. */
function parseValue(element: XmlElement): XmpNode {
  countValue();
  const { lang, parseType, resource, attrs, children, hasText } = valueParts(element);

  if (parseType === 'Resource') {
    return structOrQualified([...attrs.map(fieldFromAttribute), ...fieldsOfElements(children)], lang);
  }
  if (parseType !== undefined && parseType !== 'Literal') invalid(`unsupported rdf:parseType="${parseType}"`);
  if (resource !== undefined) {
    const node: XmpNode = { kind: 'simple', value: resource, isUri: true };
    if (attrs.length > 0) node.qualifiers = attrs.map(fieldFromAttribute);
    return withLang(node, lang);
  }
  if (children.length === 0) {
    const text = textContent(element);
    // An empty element with property attributes is the short form of a structure.
    if (attrs.length > 0 && !hasText) return structOrQualified(attrs.map(fieldFromAttribute), lang);
    const node: XmpNode = { kind: 'simple', value: text };
    if (attrs.length > 0) node.qualifiers = attrs.map(fieldFromAttribute);
    return withLang(node, lang);
  }
  if (hasText) invalid(`<${element.qname}> mixes text and elements`);
  const [first] = children;
  if (children.length === 1 && first) {
    if (first.ns === RDF_NS && (first.local === 'Bag' || first.local === 'Seq' || first.local === 'Alt')) {
      return parseArray(first, lang);
    }
    if (isRdf(first, 'Description') || (first.ns !== RDF_NS && isTypedNode(first))) {
      return parseNodeElement(first, lang);
    }
  }
  // Fields written without rdf:parseType="Resource": not strict RDF, but seen in the wild.
  return structOrQualified([...attrs.map(fieldFromAttribute), ...fieldsOfElements(children)], lang);
}

/** A typed node (<ns:Type rdf:about=...>) rather than a field; recognised by RDF attributes on it. */
function isTypedNode(element: XmlElement): boolean {
  return element.attributes.some(
    (attr) => attr.ns === RDF_NS && (attr.local === 'about' || attr.local === 'nodeID'),
  );
}

/** The namespaces the engine looks properties up in (the catalog's, RDF's, XMP's own). */
const knownNamespaces = new Map(
  [RDF_NS, XML_NS, XMLNS_NS, XMP_META_NS, XMP_NOTE_NS, ...Object.values(catalogNamespaces)].map((uri) => [
    uri,
    uri,
  ]),
);

/** More top-level properties than any real file holds; beyond it a packet is refused, not read. */
export const MAX_XMP_PROPERTIES = 10_000;
/**
 * Values of any depth (properties, array items, structure fields, qualifiers) in one packet. The
 * engine costs about 6 µs per value (bench/README.md, issue 26: 100,000 DocumentAncestors items
 * take 0.6 s of CPU, far inside STAMP_TIME_LIMIT_MS); Photoshop's runaway DocumentAncestors lists
 * reach tens of thousands, which are still stamped. Beyond it a packet is refused.
 */
export const MAX_XMP_VALUES = 100_000;

/** Names seen by namespace (no key made of both: hashing a 50-character key costs more). */
type Seen = Map<string, Set<string>>;

function addProperty(packet: XmpPacket, field: XmpField, seen: Seen): void {
  // The same property twice (in two rdf:Description elements) is invalid XMP; the first wins.
  let names = seen.get(field.ns);
  if (!names) {
    names = new Set();
    seen.set(field.ns, names);
  }
  if (names.has(field.name)) return;
  names.add(field.name);
  packet.properties.push(field);
  if (packet.properties.length > MAX_XMP_PROPERTIES)
    throw new MetadataError('METADATA_TOO_LARGE', `the XMP holds more than ${MAX_XMP_PROPERTIES} properties`);
}

/** Parses packet text or bytes. Throws MetadataError (INVALID_UTF8, XML_DOCTYPE, INVALID_XML, INVALID_XMP, METADATA_TOO_LARGE). */
export function parseXmpPacket(input: string | Uint8Array): XmpPacket {
  const text = typeof input === 'string' ? input : decodeXmpForParsing(input);
  valuesRead = 0;
  // Whitespace between elements means nothing in RDF (parseValue reads text only beside no elements).
  const { root, prefixes } = parseXml(text, { skipIgnorableWhitespace: true, namespaces: knownNamespaces });
  const packet = emptyPacket();
  packet.prefixes = prefixes;
  if (root.ns === XMP_META_NS) {
    const toolkit = root.attributes.find(
      (attr) => attr.ns === XMP_META_NS && (attr.local === 'xmptk' || attr.local === 'xaptk'),
    );
    if (toolkit) packet.toolkit = toolkit.value;
  }
  const rdf = findRdfRoot(root);
  if (!rdf) {
    if (root.ns === XMP_META_NS) return packet; // an empty x:xmpmeta
    invalid('no rdf:RDF element in XMP packet');
  }
  let aboutSet = false;
  const seen: Seen = new Map();
  for (const description of childElements(rdf)) {
    if (description.ns === '') invalid(`element <${description.qname}> has no namespace`);
    const about = rdfAttr(description, 'about');
    if (about && !aboutSet) {
      packet.about = about;
      aboutSet = true;
    }
    for (const attr of propertyAttributes(description)) addProperty(packet, fieldFromAttribute(attr), seen);
    for (const child of childElements(description)) {
      if (child.ns === '') invalid(`property <${child.qname}> has no namespace`);
      if (child.ns === RDF_NS) invalid(`unexpected <${child.qname}> as a property`);
      addProperty(packet, { ns: child.ns, name: child.local, node: parseValue(child) }, seen);
    }
  }
  return packet;
}
