import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fullTemplate } from '../test/support.ts';
import { catalog, getProperty } from './catalog.ts';
import { MetadataError } from './errors.ts';
import { checkTemplate, nodeToValues, resolvePath, templateNode } from './template.ts';
import { simple } from './xmp-model.ts';

describe('template values', () => {
  it('resolve property and structure field paths against the catalog', () => {
    assert.equal(resolvePath('headline')?.property.id, 'headline');
    const path = resolvePath('imageRegion,regionBoundary,rbVertices[2],rbX');
    assert.deepEqual(
      path?.fields.map((step) => [step.def.id, step.index]),
      [
        ['regionBoundary', undefined],
        ['rbVertices', 2],
        ['rbX', undefined],
      ],
    );
    assert.equal(resolvePath('locationCreated,identifiers[1]')?.fields[0]?.index, 1);
    for (const bad of [
      'nope',
      'headline,x',
      'locationCreated,city[1]',
      'headline[0]',
      '',
      'locationCreated,',
    ]) {
      assert.equal(resolvePath(bad), undefined, bad);
    }
  });

  it('build nodes: items by position, languages with x-default first, structures by field', () => {
    const keywords = getProperty('keywords');
    assert.ok(keywords);
    const node = templateNode(keywords, [
      {
        path: { property: keywords, fields: [] },
        value: { propertytypeids: 'keywords', value: 'b', position: 1 },
      },
      {
        path: { property: keywords, fields: [] },
        value: { propertytypeids: 'keywords', value: 'a', position: 0 },
      },
    ]);
    assert.deepEqual(node, { kind: 'array', form: 'Bag', items: [simple('a'), simple('b')] });
    const { valuesByProperty } = checkTemplate({
      modes: {},
      values: [
        { propertytypeids: 'title', value: 'Titel', lang: 'de' },
        { propertytypeids: 'title', value: 'Title' },
        { propertytypeids: 'locationShown,city', value: 'Paris', position: 1 },
        { propertytypeids: 'locationShown,city', value: 'Berlin', position: 0 },
        { propertytypeids: 'locationShown,identifiers[1]', value: 'urn:b', position: 0 },
        { propertytypeids: 'locationShown,identifiers[0]', value: 'urn:a', position: 0 },
      ],
    });
    const title = getProperty('title');
    const shown = getProperty('locationsShown');
    assert.ok(title && shown);
    assert.deepEqual(templateNode(title, valuesByProperty.get('title') ?? []), {
      kind: 'array',
      form: 'Alt',
      items: [simple('Title', 'x-default'), simple('Titel', 'de')],
    });
    assert.equal(valuesByProperty.get('locationsShown'), undefined, 'locationShown is not a catalog id');
  });

  it('convert every catalog property both ways without loss', () => {
    const template = fullTemplate();
    const { valuesByProperty, warnings } = checkTemplate(template);
    assert.deepEqual(warnings, []);
    assert.equal(valuesByProperty.size, catalog.length);
    for (const def of catalog) {
      const node = templateNode(def, valuesByProperty.get(def.id) ?? []);
      assert.ok(node, def.id);
      const again =
        checkTemplate({ modes: {}, values: nodeToValues(def, node) }).valuesByProperty.get(def.id) ?? [];
      assert.deepEqual(templateNode(def, again), node, def.id);
    }
  });

  it('check modes strictly and skip unknown properties with a warning', () => {
    const invalid = (error: unknown): boolean =>
      error instanceof MetadataError && error.code === 'INVALID_TEMPLATE';
    assert.throws(() => checkTemplate({ modes: { headline: 'merge' }, values: [] }), invalid);
    assert.throws(() => checkTemplate({ modes: { keywords: 'append' }, values: [] }), invalid);
    assert.throws(() => checkTemplate({ modes: { locationCreated: 'merge' }, values: [] }), invalid);
    assert.throws(() => checkTemplate({ modes: { headline: 'sometimes' as 'off' }, values: [] }), invalid);
    assert.throws(
      () => checkTemplate({ modes: {}, values: [{ propertytypeids: 'headline' } as never] }),
      invalid,
    );
    const { warnings } = checkTemplate({
      modes: { gone: 'replace' },
      values: [{ propertytypeids: 'gone', value: 'x' }],
    });
    assert.equal(warnings.length, 2);
  });
});
