import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { XmpProperty, XmpValue, XmpValues } from '../../../api/metadata.ts';
import {
  checkInput,
  childIds,
  countSet,
  idPath,
  indexedId,
  isPropertySet,
  itemPositions,
  languagesOf,
  matchesFilter,
  modeOf,
  modeOptions,
  modesForType,
  nestedIndexes,
  nextIndex,
  normalizeLanguage,
  propertiesOfCategory,
  slotCovers,
} from './metadata-model.ts';

const text = { en: 'x', de: 'x' };
const property = (overrides: Partial<XmpProperty> & Pick<XmpProperty, 'id'>): XmpProperty => ({
  type: 'simple',
  arrayOfStructures: false,
  xmpName: `ns:${overrides.id}`,
  title: text,
  desc: text,
  schema: 'core',
  uiCategory: 0,
  uiOrder: 0,
  vars: [],
  modes: [],
  iimMaxBytes: null,
  iimName: null,
  ...overrides,
});
const value = (propertytypeids: string, value: string, position = 0, lang = 'x-default'): XmpValue => ({
  propertytypeids,
  value,
  position,
  lang,
});

describe('modes per property type (spec §4)', () => {
  it('offers off/replace/append/prepend for texts, merge for collections, off/replace for arrays of structures', () => {
    assert.deepEqual(modesForType({ type: 'simple', arrayOfStructures: false }), [
      'off',
      'replace',
      'append',
      'prepend',
    ]);
    assert.deepEqual(modesForType({ type: 'alt', arrayOfStructures: false }), [
      'off',
      'replace',
      'append',
      'prepend',
    ]);
    for (const type of ['bag', 'seq', 'structure'] as const)
      assert.deepEqual(modesForType({ type, arrayOfStructures: false }), ['off', 'replace', 'merge'], type);
    assert.deepEqual(modesForType({ type: 'bag', arrayOfStructures: true }), ['off', 'replace']);
  });

  it('follows what the server allows, in the spec order', () => {
    assert.deepEqual(modeOptions(property({ id: 'a', modes: ['replace', 'off'] })), ['off', 'replace']);
    assert.deepEqual(modeOptions(property({ id: 'k', type: 'seq', modes: [] })), ['off', 'replace', 'merge']);
  });

  it('treats a property without a stored mode as off', () => {
    const values: XmpValues = { xmpmodes: [{ propertytypeid: 'headline', mode: 'append' }], xmpvalues: [] };
    assert.equal(modeOf(values, 'headline'), 'append');
    assert.equal(modeOf(values, 'title'), 'off');
    assert.equal(modeOf(undefined, 'title'), 'off');
  });
});

describe('value paths and positions', () => {
  it('builds ids of fields and of items of nested arrays', () => {
    assert.equal(childIds('locationCreated', 'city'), 'locationCreated,city');
    assert.equal(indexedId(childIds('personsShown', 'identifiers'), 2), 'personsShown,identifiers[2]');
    assert.deepEqual(idPath('personsShown,characteristics[1],cvId'), [
      'personsShown',
      'characteristics',
      'cvId',
    ]);
  });

  it('finds the items of a Bag and of an array of structures', () => {
    const values = [
      value('keywords', 'b', 3),
      value('keywords', 'a', 0),
      value('keywordsX', 'no', 5),
      value('locationsShown,city', 'Paris', 1),
      value('locationsShown,countryName', 'France', 1),
      value('locationsShown,city', 'Rome', 4),
    ];
    assert.deepEqual(itemPositions(values, property({ id: 'keywords', type: 'bag' })), [0, 3]);
    assert.deepEqual(
      itemPositions(values, property({ id: 'locationsShown', type: 'bag', arrayOfStructures: true })),
      [1, 4],
    );
  });

  it('finds the items of an array nested in a structure item', () => {
    const values = [
      value('personsShown,identifiers[0]', 'urn:a', 2),
      value('personsShown,identifiers[3]', 'urn:b', 2),
      value('personsShown,identifiers[1]', 'other item', 5),
      value('personsShown,characteristics[4],cvId', 'x', 2),
      value('personsShown,characteristics[4],cvTermName', 'y', 2),
      value('personsShown,identifiersX[9]', 'no', 2),
    ];
    assert.deepEqual(nestedIndexes(values, 'personsShown,identifiers', 2), [0, 3]);
    assert.deepEqual(nestedIndexes(values, 'personsShown,characteristics', 2), [4]);
    assert.deepEqual(nestedIndexes(values, 'personsShown,characteristics', 0), []);
  });

  it('puts a new item after the highest position', () => {
    assert.equal(nextIndex([]), 0);
    assert.equal(nextIndex([0, 7, 3]), 8);
  });

  it('knows which edits a delete covers', () => {
    const item = { ids: 'locationsShown', position: 1 };
    assert.ok(slotCovers(item, 'locationsShown,city|1|x-default'));
    assert.ok(!slotCovers(item, 'locationsShown,city|2|x-default'));
    assert.ok(!slotCovers(item, 'locationsShownX|1|x-default'));
    assert.ok(slotCovers({ ids: 'title', lang: 'de' }, 'title|0|de'));
    assert.ok(!slotCovers({ ids: 'title', lang: 'de' }, 'title|0|x-default'));
  });
});

describe('languages of Alt texts', () => {
  it('lists x-default first', () => {
    const values = [
      value('title', 'T', 0, 'fr'),
      value('title', 'T', 0, 'x-default'),
      value('title', 'T', 0, 'de'),
    ];
    assert.deepEqual(languagesOf(values, 'title'), ['x-default', 'de', 'fr']);
  });

  it('normalizes language tags as the server stores them', () => {
    assert.equal(normalizeLanguage('de-ch'), 'de-CH');
    assert.equal(normalizeLanguage(' EN '), 'en');
    assert.equal(normalizeLanguage('zh-hant-tw'), 'zh-Hant-TW');
    assert.equal(normalizeLanguage('X-Default'), 'x-default');
    assert.equal(normalizeLanguage('not a tag'), undefined);
    assert.equal(normalizeLanguage(''), undefined);
  });
});

describe('set properties, categories and filter', () => {
  const values: XmpValues = {
    xmpmodes: [
      { propertytypeid: 'city', mode: 'replace' },
      { propertytypeid: 'title', mode: 'off' },
    ],
    xmpvalues: [value('title', 'T'), value('locationCreated,city', 'Berlin')],
  };

  it('counts a property as set with a value or a mode other than off', () => {
    assert.ok(isPropertySet(values, 'city'), 'mode replace without value');
    assert.ok(isPropertySet(values, 'title'), 'value with mode off');
    assert.ok(isPropertySet(values, 'locationCreated'), 'structure field');
    assert.ok(!isPropertySet(values, 'location'), 'a prefix of another id is not enough');
    assert.equal(countSet(values, [property({ id: 'city' }), property({ id: 'headline' })]), 1);
  });

  it('sorts a category by its ui order', () => {
    const list = [
      property({ id: 'b', uiOrder: 20 }),
      property({ id: 'x', uiCategory: 3, uiOrder: 1 }),
      property({ id: 'a', uiOrder: 10 }),
    ];
    assert.deepEqual(
      propertiesOfCategory(list, 0).map((p) => p.id),
      ['a', 'b'],
    );
  });

  it('filters by title in both languages, XMP name and id', () => {
    const headline = property({
      id: 'headline',
      xmpName: 'photoshop:Headline',
      title: { en: 'Headline', de: 'Überschrift' },
    });
    assert.ok(matchesFilter(headline, ''));
    assert.ok(matchesFilter(headline, 'head'));
    assert.ok(matchesFilter(headline, 'überschrift'));
    assert.ok(matchesFilter(headline, 'photoshop head'));
    assert.ok(!matchesFilter(headline, 'keywords'));
  });
});

describe('input checks (spec §5)', () => {
  it('refuses more than 1024 characters', () => {
    assert.equal(checkInput('headline', 'x'.repeat(1024)).problem, undefined);
    assert.deepEqual(checkInput('headline', 'x'.repeat(1025)).problem, { code: 'tooLong', length: 1025 });
  });

  it('checks value formats of nested fields, placeholders excepted', () => {
    assert.equal(checkInput('locationCreated,gpsLatitude', 'north').problem?.code, 'notNumber');
    assert.equal(checkInput('locationCreated,gpsLatitude', '52.5').problem, undefined);
    assert.equal(checkInput('dateCreated', '{date}').problem, undefined);
  });

  it('warns when a top-level value does not fit its IPTC-IIM dataset', () => {
    assert.equal(checkInput('headline', 'short').iim, undefined);
    const iim = checkInput('headline', 'ü'.repeat(200)).iim;
    assert.deepEqual(iim, { bytes: 400, maxBytes: 256, name: 'Headline' });
    assert.ok(checkInput('keywords', 'k'.repeat(65)).iim, 'per keyword');
    assert.equal(checkInput('locationCreated,city', 'c'.repeat(300)).iim, undefined, 'no IIM copy of fields');
  });
});
