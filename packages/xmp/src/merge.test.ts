import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Mode } from './catalog-types.ts';
import { appendText, applyTemplate, prependText } from './merge.ts';
import type { TemplateValue } from './template.ts';
import type { PictureFacts, VariableOptions } from './variables.ts';
import {
  cloneNode,
  emptyPacket,
  getProperty,
  setProperty,
  simple,
  type XmpNode,
  type XmpPacket,
} from './xmp-model.ts';

const PS = 'http://ns.adobe.com/photoshop/1.0/';
const DC = 'http://purl.org/dc/elements/1.1/';
const CORE = 'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/';
const EXT = 'http://iptc.org/std/Iptc4xmpExt/2008-02-29/';

const alt = (...items: Array<[string, string]>): XmpNode => ({
  kind: 'array',
  form: 'Alt',
  items: items.map(([lang, value]) => simple(value, lang)),
});
const bag = (...items: string[]): XmpNode => ({
  kind: 'array',
  form: 'Bag',
  items: items.map((item) => simple(item)),
});

function picture(): XmpPacket {
  const packet = emptyPacket();
  setProperty(packet, PS, 'Headline', simple('Old headline'));
  setProperty(packet, PS, 'City', simple('Hamburg'));
  setProperty(packet, DC, 'description', alt(['x-default', 'Caption'], ['de', 'Bildunterschrift']));
  setProperty(packet, DC, 'subject', bag('a', 'b'));
  setProperty(packet, CORE, 'CreatorContactInfo', {
    kind: 'struct',
    fields: [
      { ns: CORE, name: 'CiAdrCity', node: simple('Hamburg') },
      { ns: CORE, name: 'CiEmailWork', node: simple('old@example.com') },
      { ns: 'urn:other:', name: 'Extra', node: simple('kept') },
    ],
  });
  return packet;
}

function apply(
  modes: Record<string, Mode>,
  values: TemplateValue[],
  options: VariableOptions = {},
  facts: PictureFacts = {},
  packet = picture(),
) {
  const result = applyTemplate(packet, { modes, values }, options, facts);
  return { packet, ...result };
}

const v = (propertytypeids: string, value: string, extra: Partial<TemplateValue> = {}): TemplateValue => ({
  propertytypeids,
  value,
  ...extra,
});

describe('modes', () => {
  it('off keeps the picture value even when the template has one', () => {
    const { packet } = apply({ headline: 'off' }, [v('headline', 'New')]);
    assert.deepEqual(getProperty(packet, PS, 'Headline'), simple('Old headline'));
  });

  it('replace sets the value; an empty value or no value removes the property', () => {
    assert.deepEqual(
      getProperty(apply({ headline: 'replace' }, [v('headline', 'New')]).packet, PS, 'Headline'),
      simple('New'),
    );
    assert.equal(
      getProperty(apply({ headline: 'replace' }, [v('headline', '')]).packet, PS, 'Headline'),
      undefined,
    );
    assert.equal(getProperty(apply({ headline: 'replace' }, []).packet, PS, 'Headline'), undefined);
    const { packet } = apply({ description: 'replace' }, [
      v('description', 'Neu', { lang: 'de' }),
      v('description', 'New'),
    ]);
    assert.deepEqual(getProperty(packet, DC, 'description'), alt(['x-default', 'New'], ['de', 'Neu']));
  });

  it('append and prepend join text with one space, none before a separator', () => {
    assert.equal(appendText('Caption', '(Photo: X)'), 'Caption (Photo: X)');
    assert.equal(appendText('Caption ', 'more'), 'Caption more');
    for (const separator of [',', ';', ':', '-', '/', '|']) {
      assert.equal(appendText('Caption', `${separator} x`), `Caption${separator} x`);
    }
    assert.equal(appendText('', 'only'), 'only');
    assert.equal(prependText('BERLIN -', 'Caption'), 'BERLIN - Caption');
    assert.equal(prependText('BERLIN ', 'Caption'), 'BERLIN Caption');
    assert.deepEqual(
      getProperty(apply({ headline: 'append' }, [v('headline', ', update')]).packet, PS, 'Headline'),
      simple('Old headline, update'),
    );
    assert.deepEqual(
      getProperty(apply({ headline: 'prepend' }, [v('headline', 'EILT:')]).packet, PS, 'Headline'),
      simple('EILT: Old headline'),
    );
    assert.deepEqual(
      getProperty(apply({ headline: 'append' }, [v('headline', '')]).packet, PS, 'Headline'),
      simple('Old headline'),
    );
    const empty = apply({ headline: 'append' }, [v('headline', 'Fresh')], {}, {}, emptyPacket()).packet;
    assert.deepEqual(getProperty(empty, PS, 'Headline'), simple('Fresh'));
  });

  it('append on a language alternative works per language and adds new languages', () => {
    const { packet } = apply({ description: 'append' }, [
      v('description', '(Foto: dpa)', { lang: 'de' }),
      v('description', '(Photo: dpa)'),
      v('description', '(Photo : dpa)', { lang: 'fr' }),
    ]);
    assert.deepEqual(
      getProperty(packet, DC, 'description'),
      alt(
        ['x-default', 'Caption (Photo: dpa)'],
        ['de', 'Bildunterschrift (Foto: dpa)'],
        ['fr', '(Photo : dpa)'],
      ),
    );
  });

  it('merge adds missing items to a Bag in order and keeps the existing ones', () => {
    const { packet } = apply({ keywords: 'merge' }, [
      v('keywords', 'b', { position: 0 }),
      v('keywords', 'c', { position: 1 }),
    ]);
    assert.deepEqual(getProperty(packet, DC, 'subject'), bag('a', 'b', 'c'));
  });

  it('merge sets the given fields of a structure and keeps the rest; an empty field removes it', () => {
    const { packet } = apply({ creatorContactInfo: 'merge' }, [
      v('creatorContactInfo,city', 'Berlin'),
      v('creatorContactInfo,phonework', '+49 30 1'),
      v('creatorContactInfo,emailwork', ''),
    ]);
    assert.deepEqual(getProperty(packet, CORE, 'CreatorContactInfo'), {
      kind: 'struct',
      fields: [
        { ns: CORE, name: 'CiAdrCity', node: simple('Berlin') },
        { ns: 'urn:other:', name: 'Extra', node: simple('kept') },
        { ns: CORE, name: 'CiTelWork', node: simple('+49 30 1') },
      ],
    });
  });

  it('replace on an array of structures writes the items by position', () => {
    const { packet } = apply({ locationCreated: 'replace' }, [
      v('locationCreated,city', 'Paris', { position: 1 }),
      v('locationCreated,city', 'Berlin', { position: 0 }),
      v('locationCreated,name', 'Stade de France', { position: 1, lang: 'fr' }),
      v('locationCreated,identifiers[0]', 'urn:x', { position: 0 }),
    ]);
    assert.deepEqual(getProperty(packet, EXT, 'LocationCreated'), {
      kind: 'array',
      form: 'Bag',
      items: [
        {
          kind: 'struct',
          fields: [
            { ns: EXT, name: 'City', node: simple('Berlin') },
            { ns: EXT, name: 'LocationId', node: bag('urn:x') },
          ],
        },
        {
          kind: 'struct',
          fields: [
            { ns: EXT, name: 'City', node: simple('Paris') },
            { ns: EXT, name: 'LocationName', node: alt(['fr', 'Stade de France']) },
          ],
        },
      ],
    });
  });

  it('normalises dates typed as DD.MM.YYYY for date properties', () => {
    const { packet, warnings } = apply({ dateCreated: 'replace' }, [v('dateCreated', '03.11.2025 14:05')]);
    assert.deepEqual(getProperty(packet, PS, 'DateCreated'), simple('2025-11-03T14:05'));
    assert.deepEqual(warnings, []);
    assert.match(apply({ dateCreated: 'replace' }, [v('dateCreated', 'soon')]).warnings.join(), /not a date/);
  });
});

describe('variables in template values', () => {
  it('a property alias means that property’s final value, whatever the order', () => {
    const { packet } = apply({ headline: 'replace', cityName: 'replace' }, [
      v('headline', '{city}: {event} – {caption}'),
      v('cityName', 'München'),
    ]);
    assert.deepEqual(getProperty(packet, PS, 'Headline'), simple('München:  – Caption'));
  });

  it('an alias of a property left off means the picture’s own value', () => {
    const { packet } = apply({ headline: 'replace' }, [v('headline', 'In {CITY}, {keywords}')]);
    assert.deepEqual(getProperty(packet, PS, 'Headline'), simple('In Hamburg, a, b'));
  });

  it('variables that refer to each other in a circle fall back to the picture value', () => {
    const { packet, warnings } = apply({ headline: 'replace', cityName: 'replace' }, [
      v('headline', 'H {city}'),
      v('cityName', 'C {headline}'),
    ]);
    assert.deepEqual(getProperty(packet, PS, 'Headline'), simple('H C Old headline'));
    assert.match(warnings.join(), /circle/);
  });

  it('reports unknown variables and leaves them as written', () => {
    const { packet, unknownVariables } = apply(
      { headline: 'replace' },
      [v('headline', '{nope} \\{city} {camera}')],
      {},
      {
        make: 'Canon',
        model: 'Canon EOS R5',
      },
    );
    assert.deepEqual(getProperty(packet, PS, 'Headline'), simple('{nope} {city} Canon EOS R5'));
    assert.deepEqual(unknownVariables, ['nope']);
  });

  it('expands code replacements in template values and in the picture’s own caption', () => {
    const codes = { gb12: 'Gareth Bale', rm: ['Real Madrid', 'Spain'] };
    const packet = picture();
    setProperty(packet, DC, 'description', alt(['x-default', '=gb12= scores for =rm=']));
    const result = apply(
      { headline: 'replace' },
      [v('headline', '=gb12= (=rm#2=) =zz=')],
      { codes },
      {},
      packet,
    );
    assert.deepEqual(getProperty(result.packet, PS, 'Headline'), simple('Gareth Bale (Spain) =zz='));
    assert.deepEqual(
      getProperty(result.packet, DC, 'description'),
      alt(['x-default', 'Gareth Bale scores for Real Madrid']),
    );
    assert.match(result.warnings.join(), /unknown code replacement =zz=/);
  });

  it('copies nodes deeply: the copy is equal and shares no object with the original', () => {
    const node: XmpNode = {
      kind: 'array',
      form: 'Seq',
      lang: 'de',
      qualifiers: [{ ns: EXT, name: 'q', node: simple('q', 'en') }],
      items: [
        {
          kind: 'struct',
          fields: [{ ns: CORE, name: 'CiAdrCity', node: { kind: 'simple', value: 'x', isUri: true } }],
        },
        alt(['x-default', 'a']),
      ],
    };
    const copy = cloneNode(node);
    assert.deepEqual(copy, node);
    const objects = (value: unknown, into = new Set<unknown>()): Set<unknown> => {
      if (value && typeof value === 'object') {
        into.add(value);
        for (const inner of Object.values(value)) objects(inner, into);
      }
      return into;
    };
    const original = objects(node);
    for (const object of objects(copy)) assert.ok(!original.has(object));
  });
});
