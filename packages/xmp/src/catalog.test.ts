import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildCatalogData, catalogJson } from '../scripts/catalog-builder.ts';
import { sharedData } from '../test/support.ts';
import { allowedModes, catalog, type FieldDef, getProperty, propertyForVariable } from './catalog.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

function walk(
  fields: readonly FieldDef[],
  visit: (field: FieldDef, path: string) => void,
  prefix = '',
): void {
  for (const field of fields) {
    const fieldPath = prefix ? `${prefix},${field.id}` : field.id;
    visit(field, fieldPath);
    if (field.fields) walk(field.fields, visit, fieldPath);
  }
}

describe('catalog', () => {
  it('is the generator output for the shared TechReference (regenerate with scripts/generate-catalog.ts)', () => {
    const fresh = catalogJson(buildCatalogData(path.join(sharedData, 'iptc')));
    assert.equal(readFileSync(path.join(here, 'catalog-data.json'), 'utf8'), fresh);
  });

  it('holds every IPTC Core and Extension property of the TechReference once', () => {
    const ref = JSON.parse(
      readFileSync(path.join(sharedData, 'iptc/iptc-pmd-techreference_2025.1.json'), 'utf8'),
    ) as {
      ipmd_top: Record<string, unknown>;
    };
    assert.deepEqual(catalog.map((def) => def.id).sort(), Object.keys(ref.ipmd_top).sort());
    assert.equal(catalog.filter((def) => def.schema === 'core').length, 25);
    assert.equal(catalog.filter((def) => def.schema === 'extension').length, 41);
  });

  it('gives every property and field a type, an XMP name with namespace, and English and German texts', () => {
    walk(catalog, (field, fieldPath) => {
      assert.match(field.xmpName, /^[A-Za-z0-9]+:[A-Za-z0-9]+$/, fieldPath);
      assert.match(field.namespace, /^http:\/\//, fieldPath);
      for (const text of [field.title.en, field.title.de, field.desc.en, field.desc.de]) {
        assert.ok(text.trim().length > 1, `${fieldPath} lacks a text`);
      }
      assert.ok(['simple', 'alt', 'bag', 'seq', 'structure'].includes(field.type), fieldPath);
      assert.equal(Boolean(field.fields), field.type === 'structure' || field.arrayOfStructures, fieldPath);
    });
  });

  it('knows Bag from Seq and structures from arrays of structures', () => {
    assert.equal(getProperty('creatorNames')?.type, 'seq');
    assert.equal(getProperty('keywords')?.type, 'bag');
    assert.equal(getProperty('description')?.type, 'alt');
    assert.equal(getProperty('headline')?.type, 'simple');
    assert.equal(getProperty('creatorContactInfo')?.type, 'structure');
    const licensors = getProperty('licensors');
    assert.equal(licensors?.type, 'seq');
    assert.equal(licensors?.arrayOfStructures, true);
    const region = getProperty('imageRegion');
    const boundary = region?.fields?.find((field) => field.id === 'regionBoundary');
    assert.equal(boundary?.type, 'structure');
    assert.equal(boundary?.fields?.find((field) => field.id === 'rbVertices')?.arrayOfStructures, true);
  });

  it('maps the IIM datasets with their byte limits', () => {
    const mapped = catalog.filter((def) => def.iim);
    assert.equal(mapped.length, 20);
    assert.deepEqual(getProperty('headline')?.iim, {
      record: 2,
      dataset: 105,
      name: 'Headline',
      repeatable: false,
      format: 'text',
      maxBytes: 256,
    });
    assert.equal(getProperty('keywords')?.iim?.repeatable, true);
    assert.equal(getProperty('description')?.iim?.maxBytes, 2000);
    assert.equal(getProperty('dateCreated')?.iim?.format, 'date');
    assert.equal(getProperty('dateCreated')?.iim?.timeDataset, 60);
    assert.equal(getProperty('subjectCodes')?.iim?.format, 'subject');
    assert.equal(getProperty('intellectualGenre')?.iim?.format, 'genre');
  });

  it('places every property on one of the five screen tabs in a stable order', () => {
    const categories = new Set(catalog.map((def) => def.uiCategory));
    assert.deepEqual([...categories].sort(), [0, 1, 2, 3, 4]);
    for (const category of categories) {
      const orders = catalog.filter((def) => def.uiCategory === category).map((def) => def.uiOrder);
      assert.equal(new Set(orders).size, orders.length);
    }
    assert.equal(catalog[0]?.id, 'headline');
  });

  it('allows the modes of spec §4 per type', () => {
    assert.deepEqual(allowedModes({ type: 'simple', arrayOfStructures: false }), [
      'off',
      'replace',
      'append',
      'prepend',
    ]);
    assert.deepEqual(allowedModes({ type: 'alt', arrayOfStructures: false }), [
      'off',
      'replace',
      'append',
      'prepend',
    ]);
    for (const type of ['bag', 'seq', 'structure'] as const) {
      assert.deepEqual(allowedModes({ type, arrayOfStructures: false }), ['off', 'replace', 'merge']);
    }
    assert.deepEqual(allowedModes({ type: 'bag', arrayOfStructures: true }), ['off', 'replace']);
    assert.deepEqual(getProperty('locationCreated')?.modes, ['off', 'replace']);
  });

  it('resolves variable aliases and property ids, in any case', () => {
    assert.equal(propertyForVariable('caption')?.id, 'description');
    assert.equal(propertyForVariable('City')?.id, 'cityName');
    assert.equal(propertyForVariable('event')?.id, 'eventName');
    assert.equal(propertyForVariable('credit')?.id, 'creditLine');
    assert.equal(propertyForVariable('byline')?.id, 'creatorNames');
    assert.equal(propertyForVariable('headline')?.id, 'headline');
    assert.equal(propertyForVariable('jobtitle')?.id, 'jobtitle');
    assert.equal(propertyForVariable('nothing'), undefined);
    const aliases = catalog.flatMap((def) => def.vars);
    assert.equal(new Set(aliases).size, aliases.length);
  });
});
