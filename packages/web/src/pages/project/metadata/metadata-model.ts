// What the metadata tab shows, derived from the catalog and a project's values (spec §2, §3, §4):
// the value slots of each input, the items and languages present, the modes a property offers,
// which properties count as set, and the checks of an input (spec §5).
import { langPattern, xmpModes } from '@photorelay/contract/metadata';
import { type FieldDef, getField, getProperty } from '@photorelay/xmp/catalog';
import { normalizeLang } from '@photorelay/xmp/language';
import { iimLimitWarning, utf8Length, type ValueProblemCode, validateValue } from '@photorelay/xmp/validate';
import {
  defaultLang,
  type ValueSlot,
  valueKey,
  type XmpFieldDef,
  type XmpMode,
  type XmpProperty,
  type XmpValue,
  type XmpValues,
} from '../../../api/metadata.ts';

// ---- categories ----

/** The five tabs (spec §2, §9: categories 0-4), in order. */
export const categoryKeys = [
  'imageContent',
  'imageLocation',
  'locationTakenShown',
  'imageRights',
  'more',
] as const;
export type CategoryKey = (typeof categoryKeys)[number];

export function propertiesOfCategory(properties: readonly XmpProperty[], category: number): XmpProperty[] {
  return properties
    .filter((property) => property.uiCategory === category)
    .sort((a, b) => a.uiOrder - b.uiOrder || a.id.localeCompare(b.id));
}

// ---- modes ----

/** Spec §4: text types append/prepend, Bag/Seq/structures merge, arrays of structures off and replace. */
export function modesForType(def: Pick<XmpFieldDef, 'type' | 'arrayOfStructures'>): XmpMode[] {
  if (def.arrayOfStructures) return ['off', 'replace'];
  if (def.type === 'simple' || def.type === 'alt') return ['off', 'replace', 'append', 'prepend'];
  return ['off', 'replace', 'merge'];
}

/** The modes the selector offers: what the server allows for the property, in the spec's order. */
export function modeOptions(property: Pick<XmpProperty, 'type' | 'arrayOfStructures' | 'modes'>): XmpMode[] {
  const allowed = property.modes.length > 0 ? property.modes : modesForType(property);
  return xmpModes.filter((mode) => allowed.includes(mode));
}

/** A property without a stored mode is off (the server applies nothing for it). */
export function modeOf(values: XmpValues | undefined, propertyId: string): XmpMode {
  return values?.xmpmodes.find((entry) => entry.propertytypeid === propertyId)?.mode ?? 'off';
}

// ---- slots and items ----

/** 'id[3]': an array nested in a structure names its item this way. */
export const indexedId = (id: string, index: number) => `${id}[${index}]`;

/** The ids of a field below `parentIds` ('personsShown' + 'name' -> 'personsShown,name'). */
export const childIds = (parentIds: string, fieldId: string) => `${parentIds},${fieldId}`;

const position = (value: XmpValue) => value.position ?? 0;
const lang = (value: XmpValue) => value.lang ?? defaultLang;

/** Stored texts by slot key. */
export function indexValues(values: readonly XmpValue[]): Map<string, string> {
  return new Map(values.map((value) => [valueKey(value), value.value]));
}

const belongsTo = (ids: string, propertyId: string) => ids === propertyId || ids.startsWith(`${propertyId},`);

/** Item positions of a top-level Bag/Seq (its own values) or array of structures (its fields). */
export function itemPositions(values: readonly XmpValue[], property: XmpFieldDef): number[] {
  const own = values.filter((value) =>
    property.arrayOfStructures
      ? value.propertytypeids.startsWith(`${property.id},`)
      : value.propertytypeids === property.id,
  );
  return uniqueSorted(own.map(position));
}

/**
 * Item indexes of an array nested in a structure: `containerIds` is the array's ids without
 * index ('personsShown,identifiers'); values are 'personsShown,identifiers[2]' or, for an array
 * of structures, 'personsShown,characteristics[2],cvId'.
 */
export function nestedIndexes(
  values: readonly XmpValue[],
  containerIds: string,
  itemPosition: number,
): number[] {
  const prefix = `${containerIds}[`;
  const indexes: number[] = [];
  for (const value of values) {
    if (position(value) !== itemPosition || !value.propertytypeids.startsWith(prefix)) continue;
    const match = /^(\d+)\](,|$)/.exec(value.propertytypeids.slice(prefix.length));
    if (match) indexes.push(Number(match[1]));
  }
  return uniqueSorted(indexes);
}

/** Languages of a top-level Alt text, x-default first, then alphabetical. */
export function languagesOf(values: readonly XmpValue[], propertyId: string): string[] {
  const langs = values.filter((value) => value.propertytypeids === propertyId).map(lang);
  return sortLanguages(langs);
}

export function sortLanguages(langs: readonly string[]): string[] {
  const unique = [...new Set(langs)];
  return unique.sort((a, b) =>
    a === defaultLang ? -1 : b === defaultLang ? 1 : a.localeCompare(b, 'en', { sensitivity: 'base' }),
  );
}

/** The position a new item takes: after the highest one in use. */
export const nextIndex = (used: readonly number[]) => (used.length === 0 ? 0 : Math.max(...used) + 1);

export function uniqueSorted(numbers: readonly number[]): number[] {
  return [...new Set(numbers)].sort((a, b) => a - b);
}

/** Keys of the values a DELETE of `slot` removes, for dropping their unsaved edits too. */
export function slotCovers(slot: ValueSlot, key: string): boolean {
  const [ids, keyPosition, keyLang] = key.split('|');
  if (ids !== slot.ids && !ids.startsWith(`${slot.ids},`)) return false;
  if (slot.position !== undefined && Number(keyPosition) !== slot.position) return false;
  if (slot.lang !== undefined && keyLang !== slot.lang) return false;
  return true;
}

// ---- languages ----

/** A language tag as the server stores it (de-ch -> de-CH); undefined when it is none. */
export function normalizeLanguage(input: string): string | undefined {
  const text = input.trim();
  if (text.toLowerCase() === defaultLang) return defaultLang;
  if (text === '' || !langPattern.test(text)) return undefined;
  return normalizeLang(text);
}

// ---- set / unset ----

/** A property counts as set when it holds a value or a mode other than off. */
export function isPropertySet(values: XmpValues | undefined, propertyId: string): boolean {
  if (!values) return false;
  if (modeOf(values, propertyId) !== 'off') return true;
  return values.xmpvalues.some((value) => belongsTo(value.propertytypeids, propertyId));
}

export function countSet(values: XmpValues | undefined, properties: readonly XmpProperty[]): number {
  return properties.filter((property) => isPropertySet(values, property.id)).length;
}

/** Filter of the property list: title (either language), XMP name or id. */
export function matchesFilter(property: XmpProperty, query: string): boolean {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = [
    property.id,
    property.xmpName,
    property.title.en,
    property.title.de,
    property.iimName ?? '',
  ]
    .join(' ')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

// ---- input checks (spec §5: up to 1024 characters; IPTC-IIM byte limits) ----

/** Strips item indexes: 'personsShown,characteristics[1],cvId' -> ['personsShown', 'characteristics', 'cvId']. */
export const idPath = (ids: string) => ids.split(',').map((segment) => segment.replace(/\[\d+\]$/, ''));

/** The engine's definition of a value's field, for its checks. */
function engineField(ids: string) {
  const [head, ...rest] = idPath(ids);
  const property = getProperty(head);
  let def: FieldDef | undefined = property;
  for (const id of rest) def = def ? getField(def, id) : undefined;
  return { property, def };
}

export type InputCheck = {
  /** Why the text cannot be saved. */
  problem?: { code: ValueProblemCode; length: number };
  /** The text does not fit its IPTC-IIM dataset (cut there, kept whole in XMP). */
  iim?: { bytes: number; maxBytes: number; name: string };
};

export function checkInput(ids: string, text: string): InputCheck {
  const { property, def } = engineField(ids);
  const result: InputCheck = {};
  if (def) {
    const check = validateValue(def, text);
    if (!check.valid) result.problem = { code: check.code, length: text.length };
  }
  // The IIM copy exists for top-level values only (the server warns the same way).
  if (
    property &&
    def === property &&
    property.iim?.maxBytes !== undefined &&
    iimLimitWarning(property, text)
  ) {
    result.iim = { bytes: utf8Length(text), maxBytes: property.iim.maxBytes, name: property.iim.name };
  }
  return result;
}
