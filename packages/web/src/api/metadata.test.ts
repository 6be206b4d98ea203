import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  deleteMatches,
  downloadResultUrl,
  slotKey,
  valueKey,
  withMode,
  withoutValues,
  withSavedValue,
  type XmpValues,
  xmpModePath,
  xmpValuePath,
} from './metadata.ts';

describe('metadata value paths (spec §7)', () => {
  it('addresses a property, a structure field, an item position and a language', () => {
    assert.equal(xmpValuePath(7, { ids: 'headline' }), 'project/7/xmpvalue/headline');
    assert.equal(
      xmpValuePath(7, { ids: 'creatorContactInfo,city' }),
      'project/7/xmpvalue/creatorContactInfo,city',
    );
    assert.equal(xmpValuePath(7, { ids: 'keywords', position: 0 }), 'project/7/xmpvalue/keywords/position/0');
    assert.equal(
      xmpValuePath(7, { ids: 'locationsShown,city', position: 3 }),
      'project/7/xmpvalue/locationsShown,city/position/3',
    );
    assert.equal(xmpValuePath(7, { ids: 'title', lang: 'de-CH' }), 'project/7/xmpvalue/title/lang/de-CH');
  });

  it('encodes the index of a nested array', () => {
    assert.equal(
      xmpValuePath(7, { ids: 'personsShown,identifiers[1]', position: 2 }),
      'project/7/xmpvalue/personsShown,identifiers%5B1%5D/position/2',
    );
  });

  it('builds the mode and download paths', () => {
    assert.equal(xmpModePath(7, 'keywords', 'merge'), 'project/7/xmpvaluemode/keywords/mode/merge');
    assert.equal(
      downloadResultUrl('3f0c7c4e-2b1a-4c55-9a43-0d5b8f1e2a01', 12, 'tok/en'),
      '/api/3f0c7c4e-2b1a-4c55-9a43-0d5b8f1e2a01/command/downloadresultfile/12/tok%2Fen',
    );
  });

  it('keys a slot like the server row it names', () => {
    assert.equal(slotKey({ ids: 'headline' }), 'headline|0|x-default');
    assert.equal(
      slotKey({ ids: 'title', lang: 'de' }),
      valueKey({ propertytypeids: 'title', value: '', lang: 'de', position: 0 }),
    );
    assert.equal(
      slotKey({ ids: 'keywords', position: 4 }),
      valueKey({ propertytypeids: 'keywords', value: '', position: 4 }),
    );
  });
});

describe('metadata cache updates', () => {
  const data: XmpValues = {
    xmpmodes: [{ propertytypeid: 'headline', mode: 'replace' }],
    xmpvalues: [
      { propertytypeids: 'headline', value: 'Old', position: 0, lang: 'x-default' },
      { propertytypeids: 'title', value: 'Titel', position: 0, lang: 'de' },
      { propertytypeids: 'title', value: 'Title', position: 0, lang: 'x-default' },
      { propertytypeids: 'locationsShown,city', value: 'Paris', position: 1, lang: 'x-default' },
      { propertytypeids: 'locationsShown,countryName', value: 'France', position: 1, lang: 'x-default' },
      { propertytypeids: 'locationsShown,city', value: 'Rome', position: 2, lang: 'x-default' },
    ],
  };
  const texts = (values: XmpValues) => values.xmpvalues.map((entry) => entry.value).sort();

  it('replaces, adds and (with an empty text) removes one value', () => {
    assert.deepEqual(texts(withSavedValue(data, { ids: 'headline' }, 'New')).includes('Old'), false);
    assert.ok(texts(withSavedValue(data, { ids: 'keywords', position: 0 }, 'sport')).includes('sport'));
    assert.deepEqual(texts(withSavedValue(data, { ids: 'title', lang: 'de' }, '')), [
      'France',
      'Old',
      'Paris',
      'Rome',
      'Title',
    ]);
  });

  it('removes what the server deletes: an item with its fields, or one language', () => {
    assert.deepEqual(texts(withoutValues(data, { ids: 'locationsShown', position: 1 })), [
      'Old',
      'Rome',
      'Titel',
      'Title',
    ]);
    assert.deepEqual(texts(withoutValues(data, { ids: 'title', lang: 'de' })), [
      'France',
      'Old',
      'Paris',
      'Rome',
      'Title',
    ]);
    assert.ok(
      !deleteMatches({ ids: 'locations' }, data.xmpvalues[3]),
      'ids are compared by field, not by prefix',
    );
  });

  it('sets a mode', () => {
    const next = withMode(data, 'headline', 'append');
    assert.deepEqual(next.xmpmodes, [{ propertytypeid: 'headline', mode: 'append' }]);
    assert.equal(withMode(data, 'keywords', 'merge').xmpmodes.length, 2);
  });
});
