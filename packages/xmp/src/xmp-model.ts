// The XMP data model (XMP spec part 1): a packet is a list of properties; a property value is
// a simple value, an array (Bag, Seq, Alt) or a structure, each optionally qualified. The model
// is independent of how the RDF was written, so any RDF form of the same data parses the same.

export interface XmpQualifiers {
  /** xml:lang, kept apart because Alt arrays depend on it. */
  lang?: string;
  /** Any other qualifiers, in document order. */
  qualifiers?: XmpField[];
}

export interface XmpSimple extends XmpQualifiers {
  kind: 'simple';
  value: string;
  /** Written as rdf:resource (a URI reference) rather than a literal. */
  isUri?: boolean;
}

export type XmpArrayForm = 'Bag' | 'Seq' | 'Alt';

export interface XmpArray extends XmpQualifiers {
  kind: 'array';
  form: XmpArrayForm;
  items: XmpNode[];
}

export interface XmpStruct extends XmpQualifiers {
  kind: 'struct';
  fields: XmpField[];
}

export type XmpNode = XmpSimple | XmpArray | XmpStruct;

/** A named value: a top-level property, a structure field or a qualifier. */
export interface XmpField {
  ns: string;
  name: string;
  node: XmpNode;
}

export interface XmpPacket {
  /** rdf:about of the description, normally ''. */
  about: string;
  /** x:xmptk of the x:xmpmeta wrapper, if any. */
  toolkit?: string;
  /** Prefix each namespace URI was declared with, to write the same prefixes back. */
  prefixes: Map<string, string>;
  properties: XmpField[];
}

export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const XMP_META_NS = 'adobe:ns:meta/';
export const XMP_NOTE_NS = 'http://ns.adobe.com/xmp/note/';

export function emptyPacket(): XmpPacket {
  return { about: '', prefixes: new Map(), properties: [] };
}

export function findField(fields: readonly XmpField[], ns: string, name: string): XmpField | undefined {
  return fields.find((field) => field.ns === ns && field.name === name);
}

export function getProperty(packet: XmpPacket, ns: string, name: string): XmpNode | undefined {
  return findField(packet.properties, ns, name)?.node;
}

/** Sets, replaces in place (keeping document order) or, with undefined, removes a field. */
export function setField(fields: XmpField[], ns: string, name: string, node: XmpNode | undefined): void {
  const index = fields.findIndex((field) => field.ns === ns && field.name === name);
  if (node === undefined) {
    if (index >= 0) fields.splice(index, 1);
  } else if (index >= 0) {
    fields[index] = { ns, name, node };
  } else {
    fields.push({ ns, name, node });
  }
}

export function setProperty(packet: XmpPacket, ns: string, name: string, node: XmpNode | undefined): void {
  setField(packet.properties, ns, name, node);
}

export function simple(value: string, lang?: string): XmpSimple {
  return lang === undefined ? { kind: 'simple', value } : { kind: 'simple', value, lang };
}

/** The x-default item of an Alt, else its first item, as text. */
export function altDefault(node: XmpNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'simple') return node.value;
  if (node.kind !== 'array' || node.items.length === 0) return undefined;
  const item = node.items.find((entry) => entry.lang?.toLowerCase() === 'x-default') ?? node.items[0];
  return item?.kind === 'simple' ? item.value : undefined;
}

/** Text items of an array (or a lone simple value, which some writers use for one-item lists). */
export function arrayTexts(node: XmpNode | undefined): string[] {
  if (!node) return [];
  if (node.kind === 'simple') return node.value === '' ? [] : [node.value];
  if (node.kind !== 'array') return [];
  return node.items.flatMap((item) => (item.kind === 'simple' ? [item.value] : []));
}

/** Deep copy, so merges never alias nodes between the parsed input and the output. */
export function cloneNode<T extends XmpNode>(node: T): T {
  // By hand: structuredClone serializes and deserializes, several times slower on these small objects.
  const copy = { ...node };
  if (node.qualifiers) copy.qualifiers = node.qualifiers.map(cloneField);
  if (node.kind === 'array') (copy as XmpArray).items = node.items.map((item) => cloneNode(item));
  else if (node.kind === 'struct') (copy as XmpStruct).fields = node.fields.map(cloneField);
  return copy;
}

const cloneField = (field: XmpField): XmpField => ({ ...field, node: cloneNode(field.node) });

/** true when a node carries no data: empty text, an array without data, a structure without data. */
export function isEmptyNode(node: XmpNode): boolean {
  if (node.kind === 'simple') return node.value === '';
  if (node.kind === 'array') return node.items.every(isEmptyNode);
  return node.fields.every((field) => isEmptyNode(field.node));
}

/** Removes empty simple values, empty fields and empty items, bottom-up; undefined if nothing is left. */
export function pruneEmpty(node: XmpNode): XmpNode | undefined {
  if (node.kind === 'simple') return node.value === '' ? undefined : node;
  if (node.kind === 'array') {
    const items = node.items.map(pruneEmpty).filter((item): item is XmpNode => item !== undefined);
    return items.length === 0 ? undefined : { ...node, items };
  }
  const fields = node.fields.flatMap((field) => {
    const pruned = pruneEmpty(field.node);
    return pruned ? [{ ...field, node: pruned }] : [];
  });
  return fields.length === 0 ? undefined : { ...node, fields };
}
