// Applies a project's template to a picture's metadata, property by property, with the mode
// the project chose (spec §4): off keeps the picture's value; replace sets the template's
// (an empty value removes the property); append/prepend join text with one space; merge adds
// missing items to a Bag/Seq or sets the given fields of a structure and keeps the rest.
import { type CatalogProperty, catalog, localName } from './catalog.ts';
import type { FieldDef, Mode } from './catalog-types.ts';
import { normalizeDateInput } from './dates.ts';
import { MetadataError } from './errors.ts';
import { checkTemplate, type Template, templateNode } from './template.ts';
import { nodeText, type PictureFacts, type VariableOptions, VariableResolver } from './variables.ts';
import {
  arrayTexts,
  cloneNode,
  getProperty,
  isEmptyNode,
  pruneEmpty,
  setField,
  setProperty,
  simple,
  type XmpNode,
  type XmpPacket,
} from './xmp-model.ts';

/** A value starting with one of these (or with a space) is attached without an added space. */
const leadingSeparator = /^[\s,;:.\-/|)!?]/;

/** existing + addition with one space between, none before a separator. */
export function appendText(existing: string, addition: string): string {
  const base = existing.trimEnd();
  if (base === '') return addition;
  if (addition === '') return existing;
  return leadingSeparator.test(addition) ? base + addition : `${base} ${addition}`;
}

/** addition + existing with one space between. */
export function prependText(addition: string, existing: string): string {
  const base = existing.trimStart();
  if (base === '') return addition;
  if (addition === '') return existing;
  return /\s$/.test(addition) ? addition + base : `${addition} ${base}`;
}

function textOf(node: XmpNode | undefined): string {
  if (!node) return '';
  if (node.kind === 'simple') return node.value;
  return arrayTexts(node).join(' ');
}

function joinSimple(mode: 'append' | 'prepend', existing: XmpNode | undefined, incoming: XmpNode): XmpNode {
  const addition = textOf(incoming);
  const current = textOf(existing);
  const base = existing?.kind === 'simple' ? existing : simple('');
  return {
    ...base,
    value: mode === 'append' ? appendText(current, addition) : prependText(addition, current),
  };
}

function joinAlt(mode: 'append' | 'prepend', existing: XmpNode | undefined, incoming: XmpNode): XmpNode {
  const items =
    existing?.kind === 'array'
      ? existing.items.map(cloneNode)
      : existing?.kind === 'simple'
        ? [{ ...existing, lang: existing.lang ?? 'x-default' }]
        : [];
  const additions = incoming.kind === 'array' ? incoming.items : [incoming];
  for (const addition of additions) {
    if (addition.kind !== 'simple' || addition.value === '') continue;
    const lang = (addition.lang ?? 'x-default').toLowerCase();
    const index = items.findIndex((item) => (item.lang ?? 'x-default').toLowerCase() === lang);
    const current = index >= 0 ? items[index] : undefined;
    if (current?.kind === 'simple') {
      const value =
        mode === 'append'
          ? appendText(current.value, addition.value)
          : prependText(addition.value, current.value);
      items[index] = { ...current, value };
    } else if (index < 0) {
      // x-default leads an Alt (readers that take the first item get the default).
      const item = simple(addition.value, addition.lang ?? 'x-default');
      if (lang === 'x-default') items.unshift(item);
      else items.push(item);
    }
  }
  return { kind: 'array', form: 'Alt', items };
}

function mergeArray(def: FieldDef, existing: XmpNode | undefined, incoming: XmpNode): XmpNode {
  const items =
    existing?.kind === 'array'
      ? existing.items.map(cloneNode)
      : existing?.kind === 'simple' && existing.value !== ''
        ? [existing]
        : [];
  const present = new Set(items.flatMap((item) => (item.kind === 'simple' ? [item.value] : [])));
  for (const item of incoming.kind === 'array' ? incoming.items : [incoming]) {
    if (item.kind !== 'simple' || item.value === '' || present.has(item.value)) continue;
    present.add(item.value);
    items.push(item);
  }
  const form =
    existing?.kind === 'array' && existing.form !== 'Alt'
      ? existing.form
      : def.type === 'seq'
        ? 'Seq'
        : 'Bag';
  return { kind: 'array', form, items };
}

function mergeStruct(existing: XmpNode | undefined, incoming: XmpNode): XmpNode | undefined {
  if (incoming.kind !== 'struct') return pruneEmpty(incoming);
  const fields =
    existing?.kind === 'struct'
      ? existing.fields.map((field) => ({ ...field, node: cloneNode(field.node) }))
      : [];
  for (const field of incoming.fields) {
    setField(fields, field.ns, field.name, isEmptyNode(field.node) ? undefined : pruneEmpty(field.node));
  }
  return fields.length > 0
    ? { ...(existing?.kind === 'struct' ? existing : {}), kind: 'struct', fields }
    : undefined;
}

/** The value of one property after applying a mode. Empty results are undefined (removed). */
function applyMode(
  def: FieldDef,
  mode: Mode,
  existing: XmpNode | undefined,
  incoming: XmpNode | undefined,
): XmpNode | undefined {
  switch (mode) {
    case 'off':
      return existing;
    case 'replace':
      return incoming ? pruneEmpty(incoming) : undefined;
    case 'append':
    case 'prepend':
      if (!incoming || isEmptyNode(incoming)) return existing;
      if (def.type === 'simple') return joinSimple(mode, existing, incoming);
      if (def.type === 'alt') return pruneEmpty(joinAlt(mode, existing, incoming));
      break;
    case 'merge':
      if (!incoming) return existing;
      if (def.type === 'structure') return mergeStruct(existing, incoming);
      if ((def.type === 'bag' || def.type === 'seq') && !def.arrayOfStructures)
        return pruneEmpty(mergeArray(def, existing, incoming));
      break;
  }
  throw new MetadataError('INVALID_TEMPLATE', `mode ${mode} does not apply to ${def.id} (${def.type})`);
}

const IN_PROGRESS = Symbol('in progress');

export interface ApplyResult {
  warnings: string[];
  /** Variables the template used that mean nothing (left in the text as written). */
  unknownVariables: string[];
}

/** Expands =code= replacements in the picture's own caption, in every language. */
function expandCaptionCodes(packet: XmpPacket, resolver: VariableResolver): void {
  const caption = catalog.find((def) => def.id === 'description');
  if (!caption) return;
  const node = getProperty(packet, caption.namespace, localName(caption));
  if (node?.kind === 'simple') node.value = resolver.expandCodes(node.value);
  if (node?.kind === 'array') {
    for (const item of node.items) if (item.kind === 'simple') item.value = resolver.expandCodes(item.value);
  }
}

/**
 * Applies the template to the packet in place. Template values are resolved first (codes,
 * variables); a variable naming a property ({city}) gets that property's final value, computed
 * on demand, so the order of properties does not matter.
 */
export function applyTemplate(
  packet: XmpPacket,
  template: Template,
  options: VariableOptions = {},
  facts: PictureFacts = {},
): ApplyResult {
  const { valuesByProperty, warnings } = checkTemplate(template);
  const finals = new Map<string, XmpNode | undefined | typeof IN_PROGRESS>();
  const resolver = new VariableResolver(options, facts, (def) => nodeText(def, finalNode(def)));

  function transform(def: FieldDef, value: string): string {
    const resolved = resolver.resolve(value);
    if (def.valueFormat !== 'date-time' || resolved.trim() === '') return resolved;
    const date = normalizeDateInput(resolved);
    if (!date)
      warnings.push(`${def.title.en}: "${resolved}" is not a date (expected YYYY-MM-DD or DD.MM.YYYY)`);
    return date ?? resolved;
  }

  function finalNode(def: CatalogProperty): XmpNode | undefined {
    const existing = getProperty(packet, def.namespace, localName(def));
    const known = finals.get(def.id);
    if (known === IN_PROGRESS) {
      warnings.push(
        `variables of ${def.id} refer to each other in a circle; the picture's own value was used`,
      );
      return existing;
    }
    if (finals.has(def.id)) return known;
    const mode = template.modes?.[def.id] ?? 'off';
    if (mode === 'off') return existing;
    finals.set(def.id, IN_PROGRESS);
    const incoming = templateNode(def, valuesByProperty.get(def.id) ?? [], transform);
    const result = applyMode(def, mode, existing, incoming);
    finals.set(def.id, result);
    return result;
  }

  expandCaptionCodes(packet, resolver);
  // Compute every final value before writing any, so aliases see the picture's values.
  const results = catalog
    .filter((def) => (template.modes?.[def.id] ?? 'off') !== 'off')
    .map((def) => [def, finalNode(def)] as const);
  for (const [def, node] of results) setProperty(packet, def.namespace, localName(def), node);
  return { warnings: [...warnings, ...resolver.warnings], unknownVariables: [...resolver.unknownVariables] };
}
