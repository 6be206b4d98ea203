import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type IimDataset, iimDigest, serializeIim, UTF8_MARKER } from './iim.ts';
import { type IimState, reconcileIimIntoXmp, syncIimFromXmp } from './iim-mapping.ts';
import { emptyPacket, getProperty, setProperty, simple, type XmpPacket } from './xmp-model.ts';

const PS = 'http://ns.adobe.com/photoshop/1.0/';
const DC = 'http://purl.org/dc/elements/1.1/';
const CORE = 'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/';

const ds = (record: number, dataset: number, text: string | Buffer): IimDataset => ({
  record,
  dataset,
  data: typeof text === 'string' ? Buffer.from(text, 'utf8') : text,
});

function state(datasets: IimDataset[], digest: 'none' | 'match' | 'stale' = 'none'): IimState {
  const current = iimDigest(serializeIim(datasets));
  const result: IimState = { datasets, utf8: false, currentDigest: current };
  if (digest === 'match') result.storedDigest = current;
  if (digest === 'stale') result.storedDigest = Buffer.alloc(16);
  return result;
}

function packetWithCity(city: string): XmpPacket {
  const packet = emptyPacket();
  setProperty(packet, PS, 'City', simple(city));
  return packet;
}

const cityOf = (packet: XmpPacket): unknown => getProperty(packet, PS, 'City');
const texts = (datasets: IimDataset[], record: number, dataset: number): string[] =>
  datasets
    .filter((entry) => entry.record === record && entry.dataset === dataset)
    .map((entry) => entry.data.toString('utf8'));

describe('reading IIM next to XMP (MWG)', () => {
  it('fills in values XMP lacks', () => {
    const packet = emptyPacket();
    reconcileIimIntoXmp(
      packet,
      state([ds(2, 90, 'Berlin'), ds(2, 25, 'a'), ds(2, 25, 'b'), ds(2, 120, 'Caption')]),
    );
    assert.deepEqual(cityOf(packet), simple('Berlin'));
    assert.deepEqual(getProperty(packet, DC, 'subject'), {
      kind: 'array',
      form: 'Bag',
      items: [simple('a'), simple('b')],
    });
    assert.deepEqual(getProperty(packet, DC, 'description'), {
      kind: 'array',
      form: 'Alt',
      items: [simple('Caption', 'x-default')],
    });
  });

  it('keeps XMP when there is no digest or the digest matches', () => {
    for (const digest of ['none', 'match'] as const) {
      const packet = packetWithCity('Hamburg');
      reconcileIimIntoXmp(packet, state([ds(2, 90, 'Berlin')], digest));
      assert.deepEqual(cityOf(packet), simple('Hamburg'), digest);
    }
  });

  it('takes IIM when the digest is stale (IIM was edited by an application that ignores XMP)', () => {
    const packet = packetWithCity('Hamburg');
    reconcileIimIntoXmp(packet, state([ds(2, 90, 'Berlin')], 'stale'));
    assert.deepEqual(cityOf(packet), simple('Berlin'));
  });

  it('keeps the full XMP value when IIM holds it cut at the byte limit', () => {
    const long = 'Ä'.repeat(20); // 40 bytes, City holds 32
    const packet = packetWithCity(long);
    reconcileIimIntoXmp(packet, state([ds(2, 90, 'Ä'.repeat(16))], 'stale'));
    assert.deepEqual(cityOf(packet), simple(long));
  });

  it('converts genre, subject codes and date/time between the IIM and XMP forms', () => {
    const packet = emptyPacket();
    reconcileIimIntoXmp(
      packet,
      state([
        ds(2, 4, '000:Actuality'),
        ds(2, 12, 'IPTC:15054000:Sport:Soccer:'),
        ds(2, 55, '20251103'),
        ds(2, 60, '002501+0100'),
      ]),
    );
    assert.deepEqual(getProperty(packet, CORE, 'IntellectualGenre'), simple('Actuality'));
    assert.deepEqual(getProperty(packet, CORE, 'SubjectCode'), {
      kind: 'array',
      form: 'Bag',
      items: [simple('15054000')],
    });
    assert.deepEqual(getProperty(packet, PS, 'DateCreated'), simple('2025-11-03T00:25:01+01:00'));
  });

  it('keeps other languages of an Alt when IIM wins the default', () => {
    const packet = emptyPacket();
    setProperty(packet, DC, 'title', {
      kind: 'array',
      form: 'Alt',
      items: [simple('Old', 'x-default'), simple('Alt', 'de')],
    });
    reconcileIimIntoXmp(packet, state([ds(2, 5, 'New')], 'stale'));
    assert.deepEqual(getProperty(packet, DC, 'title'), {
      kind: 'array',
      form: 'Alt',
      items: [simple('New', 'x-default'), simple('Alt', 'de')],
    });
  });
});

describe('writing IIM from XMP', () => {
  it('marks UTF-8, writes the record version and mapped values in dataset order, keeps the rest', () => {
    const packet = packetWithCity('München');
    setProperty(packet, CORE, 'IntellectualGenre', simple('Feature'));
    setProperty(packet, CORE, 'SubjectCode', { kind: 'array', form: 'Bag', items: [simple('15054000')] });
    setProperty(packet, PS, 'DateCreated', simple('2024-05-03T14:22:00Z'));
    setProperty(packet, DC, 'subject', { kind: 'array', form: 'Bag', items: [simple('a'), simple('b')] });
    const kept = [ds(1, 20, Buffer.from([0, 1])), ds(2, 15, 'SPO'), ds(2, 90, 'Old city'), ds(2, 10, '5')];
    const { datasets, warnings } = syncIimFromXmp(packet, state(kept));
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      datasets.map((entry) => `${entry.record}:${entry.dataset}`),
      ['1:20', '1:90', '2:0', '2:4', '2:10', '2:12', '2:15', '2:25', '2:25', '2:55', '2:60', '2:90'],
    );
    assert.deepEqual(datasets[1]?.data, UTF8_MARKER);
    assert.deepEqual(texts(datasets, 2, 90), ['München']);
    assert.deepEqual(texts(datasets, 2, 4), ['000:Feature']);
    assert.deepEqual(texts(datasets, 2, 12), ['IPTC:15054000']);
    assert.deepEqual(texts(datasets, 2, 55), ['20240503']);
    assert.deepEqual(texts(datasets, 2, 60), ['142200+0000']);
    assert.deepEqual(texts(datasets, 2, 15), ['SPO']);
  });

  it('cuts values at the byte limit on a character boundary and says so', () => {
    const packet = packetWithCity('Großstadtbezirk Äußere Vorstadt Nord');
    const { datasets, warnings } = syncIimFromXmp(packet, state([]));
    const [city] = texts(datasets, 2, 90);
    assert.ok(Buffer.byteLength(city ?? '') <= 32);
    assert.ok('Großstadtbezirk Äußere Vorstadt Nord'.startsWith(city ?? 'x'));
    assert.match(warnings[0] ?? '', /City \(legacy\) is 39 bytes; IPTC-IIM City \(2:90\) holds 32 bytes/);
  });

  it('removes mapped datasets whose XMP value is gone, and converts legacy text to UTF-8', () => {
    const latin1 = Buffer.from([0x4d, 0xfc, 0x6c, 0x6c]); // "Müll" in Windows-1252
    const { datasets } = syncIimFromXmp(emptyPacket(), state([ds(2, 90, 'Berlin'), ds(2, 20, latin1)]));
    assert.deepEqual(texts(datasets, 2, 90), []);
    assert.deepEqual(texts(datasets, 2, 20), ['Müll']);
  });
});

describe('IIM another writer wrote stays as it was where XMP says the same (issue 26 corpus)', () => {
  it('keeps date and time with their zone while XMP holds the same instant without it, or the date alone', () => {
    for (const xmpDate of ['2008-05-08T09:54:28', '2008-05-08']) {
      const packet = emptyPacket();
      setProperty(packet, PS, 'DateCreated', simple(xmpDate));
      const { datasets } = syncIimFromXmp(packet, state([ds(2, 55, '20080508'), ds(2, 60, '095428+0000')]));
      assert.deepEqual(texts(datasets, 2, 55), ['20080508'], xmpDate);
      assert.deepEqual(texts(datasets, 2, 60), ['095428+0000'], xmpDate);
    }
    const changed = emptyPacket();
    setProperty(changed, PS, 'DateCreated', simple('2026-05-23T20:15:00+02:00'));
    const { datasets } = syncIimFromXmp(changed, state([ds(2, 55, '20080508'), ds(2, 60, '095428+0000')]));
    assert.deepEqual([texts(datasets, 2, 55), texts(datasets, 2, 60)], [['20260523'], ['201500+0200']]);
  });

  it('keeps an empty dataset, and leaves out a country code that is not three letters', () => {
    const packet = emptyPacket();
    setProperty(packet, CORE, 'CountryCode', simple('US'));
    const { datasets, warnings } = syncIimFromXmp(packet, state([ds(2, 95, '')]));
    assert.deepEqual(texts(datasets, 2, 95), ['']);
    assert.deepEqual(texts(datasets, 2, 100), []);
    assert.ok(
      warnings.some((w) => /"US" is not a three-letter code/.test(w)),
      warnings.join(),
    );
    setProperty(packet, CORE, 'CountryCode', simple('USA'));
    assert.deepEqual(texts(syncIimFromXmp(packet, state([])).datasets, 2, 100), ['USA']);
  });
});
