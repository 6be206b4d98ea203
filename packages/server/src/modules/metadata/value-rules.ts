// What a project's metadata template may hold: values addressed by catalog paths, positions
// only on array items, languages only on Alt texts, modes the property's type allows (spec §4),
// texts the catalog's value format accepts (spec §5: up to 1024 characters).
import { AppError } from '@photorelay/contract/errors';
import { metadataLimits, type XmpMode } from '@photorelay/contract/metadata';
import { type CatalogProperty, getProperty, iimLimitWarning, validateValue } from '@photorelay/xmp/index';
import { defaultLang, normalizeLang } from '@photorelay/xmp/language';
import { type ResolvedPath, resolvePath } from '@photorelay/xmp/template';
import type { ValueRow } from './queries.ts';

export { defaultLang, normalizeLang };

export interface CheckedValue {
  row: ValueRow;
  /** The value will not fit its IPTC-IIM dataset (cut there, kept whole in XMP). */
  warning?: string;
}

const invalid = (message: string) => new AppError('ValidationError', message);

export function requirePath(propertytypeids: string): ResolvedPath {
  const path = resolvePath(propertytypeids);
  if (!path) throw invalid(`Unknown property ${propertytypeids}`);
  return path;
}

export function requireProperty(propertyId: string): CatalogProperty {
  const property = getProperty(propertyId);
  if (!property) throw invalid(`Unknown property ${propertyId}`);
  return property;
}

/** Whether `position` numbers items of this path: the property is a Bag/Seq (of texts or structures). */
function hasItemPosition(path: ResolvedPath): boolean {
  const { property, fields } = path;
  if (property.arrayOfStructures) return true;
  return fields.length === 0 && (property.type === 'bag' || property.type === 'seq');
}

/**
 * Checks one value of a template and gives the row to store; throws ValidationError. A value
 * not in its property's format (number, date, URI) is refused when typed in, but only warned
 * about (`formats: 'warn'`) when it comes from an existing sidecar: real files hold such values.
 */
export function checkValue(
  input: { propertytypeids: string; value: string; position?: number; lang?: string },
  formats: 'enforce' | 'warn' = 'enforce',
): CheckedValue {
  const path = requirePath(input.propertytypeids);
  const leaf = path.fields.at(-1)?.def ?? path.property;
  const name = input.propertytypeids;
  if (leaf.type === 'structure' || leaf.arrayOfStructures)
    throw invalid(`${name} is a structure: set its fields`);
  const position = input.position ?? 0;
  if (!Number.isInteger(position) || position < 0 || position > metadataLimits.positionMax)
    throw invalid(`${name}: position must be 0 to ${metadataLimits.positionMax}`);
  if (position !== 0 && !hasItemPosition(path))
    throw invalid(`${name} is not a Bag or Seq: it has no item positions`);
  const lang = normalizeLang(input.lang);
  if (lang !== defaultLang && leaf.type !== 'alt')
    throw invalid(`${name} is not a language alternative: it has no languages`);
  const check = validateValue(leaf, input.value);
  let warning: string | undefined;
  if (!check.valid) {
    const message = `${leaf.title.en} (${name}): ${check.message}`;
    if (formats === 'enforce' || check.code === 'tooLong') throw invalid(message);
    warning = `${message}; kept as given`;
  }
  warning ??= path.fields.length === 0 ? iimLimitWarning(path.property, input.value) : undefined;
  return { row: { propertytypeids: canonicalIds(path), position, lang, value: input.value }, warning };
}

/** The path as the catalog spells it (ids are case-sensitive there, so this is the input itself). */
function canonicalIds(path: ResolvedPath): string {
  return [
    path.property.id,
    ...path.fields.map((f) => (f.index === undefined ? f.def.id : `${f.def.id}[${f.index}]`)),
  ].join(',');
}

/** Checks a mode against the property's type (spec §4). */
export function checkMode(propertyId: string, mode: string): { propertyId: string; mode: XmpMode } {
  const property = requireProperty(propertyId);
  if (!(property.modes as readonly string[]).includes(mode))
    throw invalid(
      `Mode ${mode} is not allowed for ${property.title.en} (${property.type}${property.arrayOfStructures ? ' of structures' : ''}): allowed are ${property.modes.join(', ')}`,
    );
  return { propertyId: property.id, mode: mode as XmpMode };
}

/** The property must hold structure items at `position` (POST …/xmpvalue/{id}/position/{n}). */
export function requireStructureItem(propertyId: string, position: number): CatalogProperty {
  const property = requireProperty(propertyId);
  if (!property.arrayOfStructures && !(property.type === 'structure' && position === 0))
    throw invalid(`${propertyId} is not an array of structures`);
  return property;
}

/** The property must be a language alternative (POST …/xmpvalue/{id}/lang/{lang}). */
export function requireAltText(propertytypeids: string) {
  const path = requirePath(propertytypeids);
  const leaf = path.fields.at(-1)?.def ?? path.property;
  if (leaf.type !== 'alt') throw invalid(`${propertytypeids} is not a language alternative`);
  return path;
}
