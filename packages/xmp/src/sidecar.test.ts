import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fullTemplate, sharedData } from '../test/support.ts';
import { catalog } from './catalog.ts';
import { MetadataError } from './errors.ts';
import { templateToXmpSidecar, xmpSidecarToTemplate } from './sidecar.ts';
import { checkTemplate, templateNode } from './template.ts';

describe('XMP sidecar', () => {
  it('holds every template value and reads back into the same values', () => {
    const template = fullTemplate();
    const xml = templateToXmpSidecar(template);
    assert.ok(xml.startsWith('<?xpacket begin='));
    const back = xmpSidecarToTemplate(xml);
    const ours = checkTemplate(template).valuesByProperty;
    const theirs = checkTemplate(back).valuesByProperty;
    for (const def of catalog) {
      assert.deepEqual(
        templateNode(def, theirs.get(def.id) ?? []),
        templateNode(def, ours.get(def.id) ?? []),
        def.id,
      );
    }
  });

  it('keeps variables as written, and skips empty values', () => {
    const xml = templateToXmpSidecar({
      modes: { headline: 'off' },
      values: [
        { propertytypeids: 'headline', value: '{city}: =gb12=' },
        { propertytypeids: 'cityName', value: '' },
      ],
    });
    assert.deepEqual(xmpSidecarToTemplate(xml), {
      modes: { headline: 'off' },
      values: [{ propertytypeids: 'headline', value: '{city}: =gb12=' }],
    });
  });

  it('carries the modes in the PhotoRelay namespace and restores them; bad or foreign modes are skipped', () => {
    const xml = templateToXmpSidecar({
      modes: { headline: 'append', keywords: 'merge', copyrightNotice: 'off' },
      values: [
        { propertytypeids: 'headline', value: 'Finale' },
        { propertytypeids: 'keywords', position: 0, value: 'eins' },
        { propertytypeids: 'description', value: 'Text' },
      ],
    });
    assert.match(xml, /xmlns:photorelay="https:\/\/photorelay\.app\/ns\/1\.0\/"/);
    assert.match(xml, /<photorelay:headline>append<\/photorelay:headline>/);
    const back = xmpSidecarToTemplate(xml);
    assert.deepEqual(back.modes, {
      headline: 'append',
      keywords: 'merge',
      copyrightNotice: 'off',
      description: 'replace',
    });
    const tampered = xml
      .replace('>append<', '>explode<')
      .replace(
        '<photorelay:keywords>',
        '<photorelay:nosuchproperty>x</photorelay:nosuchproperty><photorelay:keywords>',
      );
    assert.deepEqual(xmpSidecarToTemplate(tampered).modes, {
      keywords: 'merge',
      copyrightNotice: 'off',
      headline: 'replace',
      description: 'replace',
    });
  });

  it('reads a sidecar written by another application (legacy prefixes, rdf:about)', () => {
    const template = xmpSidecarToTemplate(
      readFileSync(path.join(sharedData, 'xmp/exiv2-StaffPhotographer-Example.xmp')),
    );
    const value = (id: string): string[] =>
      template.values.filter((entry) => entry.propertytypeids === id).map((entry) => entry.value);
    assert.deepEqual(value('headline'), ['Farmer planting onions']);
    assert.deepEqual(value('cityName'), ['Watseka']);
    assert.deepEqual(value('creatorContactInfo,city'), ['Boston']);
    assert.ok(value('keywords').includes('onions'));
    assert.equal(template.modes.headline, 'replace');
  });

  it('refuses a file that is not XMP', () => {
    assert.throws(
      () => xmpSidecarToTemplate('{"json": true}'),
      (error: unknown) => error instanceof MetadataError,
    );
    assert.throws(
      () => xmpSidecarToTemplate('<!DOCTYPE x><x/>'),
      (error: unknown) => error instanceof MetadataError && error.code === 'XML_DOCTYPE',
    );
  });
});
