// A project's metadata template (spec §3: XMP value and XMP mode) and its conversion to and
// from XMP nodes. A value addresses a property ('headline') or a structure field
// ('locationCreated,city'); deeper fields continue the list ('imageRegion,regionBoundary,rbX').
// `position` orders the items of the property's array; an array nested in a structure takes
// its item index in brackets on its own id ('locationCreated,identifiers[1]').
import { type CatalogProperty, getProperty as getCatalogProperty, getField, localName } from './catalog.ts';
import { type FieldDef, type Mode, modeNames } from './catalog-types.ts';
import { MetadataError } from './errors.ts';
import { simple, type XmpField, type XmpNode } from './xmp-model.ts';

export interface TemplateValue {
  /** 'id', or 'parentId,childId' (more ids for deeper structure fields). */
  propertytypeids: string;
  value: string;
  /** Item position in a Bag, Seq or array of structures. */
  position?: number;
  /** Language of an Alt (language alternative) value; default x-default. */
  lang?: string;
}

export interface Template {
  modes: Record<string, Mode>;
  values: TemplateValue[];
}

export interface PathStep {
  def: FieldDef;
  /** Item index for an array nested in a structure ('identifiers[2]'). */
  index?: number;
}

export interface ResolvedPath {
  property: CatalogProperty;
  /** Structure fields below the property, outermost first. */
  fields: PathStep[];
}

const segmentPattern = /^([A-Za-z0-9$_]+)(?:\[(\d{1,6})\])?$/;

/** Resolves 'parent,child[1],grandchild' against the catalog; undefined when it names nothing. */
export function resolvePath(propertytypeids: string): ResolvedPath | undefined {
  const segments = propertytypeids.split(',').map((segment) => segmentPattern.exec(segment.trim()));
  const [head, ...rest] = segments;
  if (!head?.[1] || head[2] !== undefined) return undefined;
  const property = getCatalogProperty(head[1]);
  if (!property) return undefined;
  const fields: PathStep[] = [];
  let parent: FieldDef = property;
  for (const match of rest) {
    if (!match?.[1]) return undefined;
    const def = getField(parent, match[1]);
    if (!def) return undefined;
    const isArray = def.type === 'bag' || def.type === 'seq';
    if (match[2] !== undefined && !isArray) return undefined;
    fields.push(match[2] === undefined ? { def } : { def, index: Number(match[2]) });
    parent = def;
  }
  return { property, fields };
}

/** One value on its way into a node: the fields still to descend and its item index there. */
interface Entry {
  steps: PathStep[];
  index: number | undefined;
  value: string;
  lang: string | undefined;
}

export type ValueTransform = (def: FieldDef, value: string) => string;

const byIndex = (a: Entry, b: Entry): number =>
  (a.index ?? Number.MAX_SAFE_INTEGER) - (b.index ?? Number.MAX_SAFE_INTEGER);

function arrayForm(def: FieldDef): 'Bag' | 'Seq' {
  return def.type === 'seq' ? 'Seq' : 'Bag';
}

function buildStruct(def: FieldDef, entries: Entry[], transform: ValueTransform): XmpNode | undefined {
  const fields: XmpField[] = [];
  for (const fieldDef of def.fields ?? []) {
    const mine = entries
      .filter((entry) => entry.steps[0]?.def === fieldDef)
      .map((entry) => ({ ...entry, steps: entry.steps.slice(1), index: entry.steps[0]?.index }));
    const node = buildNode(fieldDef, mine, transform);
    if (node) fields.push({ ns: fieldDef.namespace, name: localName(fieldDef), node });
  }
  return fields.length > 0 ? { kind: 'struct', fields } : undefined;
}

/**
 * Builds a node from the values addressed to it. Empty values are kept as empty simple values
 * so the modes can tell "set to empty" (remove) from "not given".
 */
function buildNode(def: FieldDef, entries: Entry[], transform: ValueTransform): XmpNode | undefined {
  if (entries.length === 0) return undefined;
  if (def.arrayOfStructures) {
    const groups = new Map<number, Entry[]>();
    for (const entry of [...entries].sort(byIndex)) {
      const key = entry.index ?? 0;
      groups.set(key, [...(groups.get(key) ?? []), entry]);
    }
    const items = [...groups.values()]
      .map((group) => buildStruct(def, group, transform))
      .filter((item): item is XmpNode => item !== undefined);
    return { kind: 'array', form: arrayForm(def), items };
  }
  const leaves = entries.filter((entry) => entry.steps.length === 0);
  switch (def.type) {
    case 'structure':
      return buildStruct(def, entries, transform);
    case 'simple': {
      const last = leaves[leaves.length - 1];
      return last ? simple(transform(def, last.value)) : undefined;
    }
    case 'alt': {
      const byLang = new Map<string, string>();
      for (const entry of leaves)
        byLang.set((entry.lang ?? '').trim() || 'x-default', transform(def, entry.value));
      const langs = [...byLang.keys()].sort((a, b) => Number(b === 'x-default') - Number(a === 'x-default'));
      return { kind: 'array', form: 'Alt', items: langs.map((lang) => simple(byLang.get(lang) ?? '', lang)) };
    }
    default:
      return {
        kind: 'array',
        form: arrayForm(def),
        items: [...leaves].sort(byIndex).map((entry) => simple(transform(def, entry.value))),
      };
  }
}

const identity: ValueTransform = (_def, value) => value;

/** The node a template gives one property, or undefined when it has no values for it. */
export function templateNode(
  property: CatalogProperty,
  values: ReadonlyArray<{ path: ResolvedPath; value: TemplateValue }>,
  transform: ValueTransform = identity,
): XmpNode | undefined {
  const entries: Entry[] = values.map(({ path, value }) => ({
    steps: path.fields,
    index: value.position,
    value: value.value,
    lang: value.lang,
  }));
  return buildNode(property, entries, transform);
}

function indexed(path: string[], index: number): string[] {
  const copy = [...path];
  copy[copy.length - 1] = `${copy[copy.length - 1]}[${index}]`;
  return copy;
}

/** Values that describe a node: the inverse of templateNode for the fields the catalog knows. */
function flatten(
  def: FieldDef,
  node: XmpNode,
  path: string[],
  position: number | undefined,
  out: TemplateValue[],
): void {
  const push = (value: string, extra: Partial<TemplateValue>, at: string[] = path, pos = position): void => {
    const entry: TemplateValue = { propertytypeids: at.join(','), value, ...extra };
    if (pos !== undefined) entry.position = pos;
    out.push(entry);
  };
  const isTop = path.length === 1;
  if (def.type === 'bag' || def.type === 'seq') {
    const items = node.kind === 'array' ? node.items : [node];
    items.forEach((item, index) => {
      const itemPath = isTop ? path : indexed(path, index);
      const itemPosition = isTop ? index : position;
      if (def.arrayOfStructures) flattenStruct(def, item, itemPath, itemPosition, out);
      else if (item.kind === 'simple') push(item.value, {}, itemPath, itemPosition);
    });
    return;
  }
  if (def.type === 'structure') {
    flattenStruct(def, node, path, position, out);
    return;
  }
  if (def.type === 'alt') {
    const items = node.kind === 'array' ? node.items : [node];
    for (const item of items)
      if (item.kind === 'simple') push(item.value, { lang: item.lang ?? 'x-default' });
    return;
  }
  if (node.kind === 'simple') push(node.value, {});
}

function flattenStruct(
  def: FieldDef,
  node: XmpNode,
  path: string[],
  position: number | undefined,
  out: TemplateValue[],
): void {
  if (node.kind !== 'struct') return;
  for (const fieldDef of def.fields ?? []) {
    const field = node.fields.find(
      (entry) => entry.ns === fieldDef.namespace && entry.name === localName(fieldDef),
    );
    if (field) flatten(fieldDef, field.node, [...path, fieldDef.id], position, out);
  }
}

export function nodeToValues(property: CatalogProperty, node: XmpNode): TemplateValue[] {
  const out: TemplateValue[] = [];
  flatten(property, node, [property.id], undefined, out);
  return out;
}

export interface TemplateCheck {
  /** Values grouped by property id, with their resolved paths. */
  valuesByProperty: Map<string, Array<{ path: ResolvedPath; value: TemplateValue }>>;
  warnings: string[];
}

/**
 * Checks a template against the catalog. A mode a property does not allow, or an unknown mode,
 * is an error (INVALID_TEMPLATE); values for unknown properties are skipped with a warning,
 * so a template saved with an older catalog still works.
 */
export function checkTemplate(template: Template): TemplateCheck {
  const warnings: string[] = [];
  for (const [id, mode] of Object.entries(template.modes ?? {})) {
    if (!(modeNames as readonly string[]).includes(mode)) {
      throw new MetadataError('INVALID_TEMPLATE', `unknown mode "${String(mode)}" for ${id}`);
    }
    const property = getCatalogProperty(id);
    if (!property) {
      warnings.push(`mode for unknown property ${id} ignored`);
      continue;
    }
    if (!property.modes.includes(mode)) {
      throw new MetadataError(
        'INVALID_TEMPLATE',
        `mode ${mode} is not allowed for ${id} (allowed: ${property.modes.join(', ')})`,
      );
    }
  }
  const valuesByProperty = new Map<string, Array<{ path: ResolvedPath; value: TemplateValue }>>();
  for (const value of template.values ?? []) {
    if (typeof value?.propertytypeids !== 'string' || typeof value.value !== 'string') {
      throw new MetadataError(
        'INVALID_TEMPLATE',
        'every template value needs propertytypeids and value strings',
      );
    }
    const path = resolvePath(value.propertytypeids);
    if (!path) {
      warnings.push(`value for unknown property ${value.propertytypeids} ignored`);
      continue;
    }
    const list = valuesByProperty.get(path.property.id) ?? [];
    list.push({ path, value });
    valuesByProperty.set(path.property.id, list);
  }
  return { valuesByProperty, warnings };
}
