// Issue 15 item 6: when EXIF's mirrored texts and XMP disagree, EXIF wins only where it changed
// since an XMP-aware writer last synchronised (the IIM digest no longer matches), or where XMP
// lacks the value; EXIF comes before IIM, but only where EXIF itself differs from XMP.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type IimDataset, iimDigest, serializeIim } from './iim.ts';
import type { IimState } from './iim-mapping.ts';
import { reconcileIntoXmp } from './mwg-reading.ts';
import {
  altDefault,
  arrayTexts,
  emptyPacket,
  getProperty,
  setProperty,
  simple,
  type XmpPacket,
} from './xmp-model.ts';

const DC = 'http://purl.org/dc/elements/1.1/';
const caption = (text: string): IimDataset => ({ record: 2, dataset: 120, data: Buffer.from(text) });

function iim(datasets: IimDataset[], digest: 'none' | 'match' | 'stale'): IimState {
  const current = iimDigest(serializeIim(datasets));
  const state: IimState = { datasets, utf8: true, currentDigest: current };
  if (digest === 'match') state.storedDigest = current;
  if (digest === 'stale') state.storedDigest = Buffer.alloc(16);
  return state;
}

function packet(description: string, creators: string[] = []): XmpPacket {
  const out = emptyPacket();
  setProperty(out, DC, 'description', {
    kind: 'array',
    form: 'Alt',
    items: [simple(description, 'x-default'), simple(`${description} (de)`, 'de')],
  });
  if (creators.length > 0)
    setProperty(out, DC, 'creator', { kind: 'array', form: 'Seq', items: creators.map((c) => simple(c)) });
  return out;
}

const description = (p: XmpPacket): string | undefined => altDefault(getProperty(p, DC, 'description'));

describe('reading EXIF texts next to XMP (MWG)', () => {
  it('keeps XMP when there is no digest or it still matches', () => {
    for (const digest of ['none', 'match'] as const) {
      const p = packet('XMP caption', ['Jane Doe']);
      reconcileIntoXmp(p, iim([caption('XMP caption')], digest), {
        imageDescription: 'EXIF caption',
        artist: 'Someone Else',
      });
      assert.equal(description(p), 'XMP caption', digest);
      assert.deepEqual(arrayTexts(getProperty(p, DC, 'creator')), ['Jane Doe'], digest);
    }
  });

  it('takes EXIF when the digest no longer matches; other languages stay, Artist splits at ";"', () => {
    const p = packet('XMP caption', ['Jane Doe']);
    reconcileIntoXmp(p, iim([caption('XMP caption')], 'stale'), {
      imageDescription: 'EXIF caption',
      artist: 'Ann A.; Bob B.',
      copyright: '',
    });
    assert.deepEqual(getProperty(p, DC, 'description'), {
      kind: 'array',
      form: 'Alt',
      items: [simple('EXIF caption', 'x-default'), simple('XMP caption (de)', 'de')],
    });
    assert.deepEqual(arrayTexts(getProperty(p, DC, 'creator')), ['Ann A.', 'Bob B.']);
    assert.equal(getProperty(p, DC, 'rights'), undefined, 'an empty EXIF field says nothing');
  });

  it('fills in what XMP lacks, whatever the digest', () => {
    const p = emptyPacket();
    reconcileIntoXmp(p, iim([], 'match'), { copyright: '© Agentur', imageDescription: '   ' });
    assert.equal(altDefault(getProperty(p, DC, 'rights')), '© Agentur');
    assert.equal(getProperty(p, DC, 'description'), undefined, 'a blank EXIF field says nothing');
  });

  it('EXIF before IIM where both changed; IIM where only IIM changed', () => {
    const both = packet('XMP caption');
    reconcileIntoXmp(both, iim([caption('IIM caption')], 'stale'), { imageDescription: 'EXIF caption' });
    assert.equal(description(both), 'EXIF caption');
    const onlyIim = packet('XMP caption');
    reconcileIntoXmp(onlyIim, iim([caption('IIM caption')], 'stale'), { imageDescription: 'XMP caption' });
    assert.equal(description(onlyIim), 'IIM caption');
  });
});
