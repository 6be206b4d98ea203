// The IPTC property catalog (IPTC Core + Extension), generated from the TechReference by
// scripts/generate-catalog.ts. Safe to import in the browser: no Node APIs here.
import catalogJson from './catalog-data.json' with { type: 'json' };
import type { CatalogData, FieldDef, Mode, PropertyDef } from './catalog-types.ts';

export type {
  CatalogData,
  FieldDef,
  IimFormat,
  IimMapping,
  LocalizedText,
  Mode,
  PropertyDef,
  PropertyType,
  UiCategory,
  ValueFormat,
} from './catalog-types.ts';
export { modeNames } from './catalog-types.ts';

// The JSON module is typed with widened strings; the generator and catalog.test.ts guarantee
// it has the CatalogData shape.
const data = catalogJson as unknown as CatalogData;

export interface CatalogProperty extends PropertyDef {
  /** Modes the property allows (spec §4), derived from its type. */
  modes: readonly Mode[];
}

const textModes: readonly Mode[] = ['off', 'replace', 'append', 'prepend'];
const collectionModes: readonly Mode[] = ['off', 'replace', 'merge'];
const structureArrayModes: readonly Mode[] = ['off', 'replace'];

/** Modes per spec §4: text types append/prepend, collections merge, arrays of structures neither. */
export function allowedModes(def: Pick<FieldDef, 'type' | 'arrayOfStructures'>): readonly Mode[] {
  if (def.arrayOfStructures) return structureArrayModes;
  return def.type === 'simple' || def.type === 'alt' ? textModes : collectionModes;
}

export const catalog: readonly CatalogProperty[] = data.properties.map((def) => ({
  ...def,
  modes: allowedModes(def),
}));

export const catalogSource = data.source;
export const catalogNamespaces: Readonly<Record<string, string>> = data.namespaces;

const byId = new Map(catalog.map((def) => [def.id, def]));
const byAlias = new Map(catalog.flatMap((def) => def.vars.map((alias) => [alias, def] as const)));

export function getProperty(id: string): CatalogProperty | undefined {
  return byId.get(id);
}

/** Property for a variable name: an alias ({caption}) or the property id ({headline}), any case. */
export function propertyForVariable(name: string): CatalogProperty | undefined {
  const lower = name.toLowerCase();
  return byAlias.get(lower) ?? catalog.find((def) => def.id.toLowerCase() === lower);
}

export function getField(def: FieldDef, fieldId: string): FieldDef | undefined {
  return def.fields?.find((field) => field.id === fieldId);
}

/** Local part of prefix:name. */
export function localName(def: Pick<FieldDef, 'xmpName'>): string {
  const colon = def.xmpName.indexOf(':');
  return def.xmpName.slice(colon + 1);
}
