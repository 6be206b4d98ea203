import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSample } from '../test/support.ts';
import {
  formatDateTokens,
  normalizeDateInput,
  parseExifDateTime,
  parseIimDateTime,
  parseXmpDate,
} from './dates.ts';
import { parseExifBasics } from './exif.ts';
import { readJpegHead } from './jpeg.ts';
import {
  emptyVariableOf,
  type PictureFacts,
  pictureFacts,
  type VariableOptions,
  VariableResolver,
} from './variables.ts';
import { parseXmpPacket } from './xmp-packet.ts';

const facts: PictureFacts = {
  captureDate: { year: 2024, month: 5, day: 3, hour: 9, minute: 7, second: 5 },
  make: 'NIKON CORPORATION',
  model: 'NIKON Z 9',
  serial: '3001234',
  lens: 'NIKKOR Z 70-200mm f/2.8 VR S',
  iso: 6400,
};

function resolver(options: VariableOptions = {}, known: PictureFacts = facts): VariableResolver {
  return new VariableResolver(options, known, () => undefined);
}

describe('variables', () => {
  it('fill in capture date and time with the default formats of spec §9 or a given one', () => {
    assert.equal(resolver().resolve('{date} {time}'), '03.05.2024 09:07');
    assert.equal(
      resolver({ dateFormat: 'YYYY-MM-DD', timeFormat: 'HH:mm:ss' }).resolve('{date} {time}'),
      '2024-05-03 09:07:05',
    );
    assert.equal(resolver().resolve('{date:D.M.YY} {time:H.mm}'), '3.5.24 9.07');
    assert.equal(resolver().resolve('{datetime}'), '2024-05-03T09:07:05');
  });

  it('fill in camera, serial, lens, ISO, file name and the photographer of the camera', () => {
    const r = resolver({ filename: 'DSC_0042.JPG', photographers: { '3001234': 'Jane Doe' } });
    assert.equal(
      r.resolve('{camera}|{serial}|{lens}|{iso}'),
      'NIKON Z 9|3001234|NIKKOR Z 70-200mm f/2.8 VR S|6400',
    );
    assert.equal(r.resolve('{filename} {filenamebase} © {photographer}'), 'DSC_0042.JPG DSC_0042 © Jane Doe');
    assert.equal(
      resolver({}, { ...facts, make: 'Canon', model: 'EOS R5' }).resolve('{camera}'),
      'Canon EOS R5',
    );
    assert.deepEqual(r.warnings, []);
  });

  it('write nothing for a known variable the picture has no value for, with a warning', () => {
    const r = resolver({}, {});
    assert.equal(r.resolve('[{serial}][{photographer}][{date}]'), '[][][]');
    assert.deepEqual(r.warnings, [
      '{serial} had no value for this picture',
      '{photographer} had no value: the picture names no camera serial',
      '{date} had no value for this picture',
    ]);
    assert.deepEqual([...r.unknownVariables], []);
    // Issue 28: the serial photographers.json lacks is named, and the server can read it back.
    const unknownCamera = resolver({ photographers: { '999': 'Jane Doe' } }, { serial: '1234' });
    assert.equal(unknownCamera.resolve('Photo: {photographer} / Agency'), 'Photo:  / Agency');
    assert.deepEqual(unknownCamera.warnings, ['{photographer} had no value for camera serial 1234']);
    assert.deepEqual(emptyVariableOf(unknownCamera.warnings[0] ?? ''), {
      name: 'photographer',
      serial: '1234',
    });
    assert.deepEqual(emptyVariableOf('{date} had no value for this picture'), { name: 'date' });
    assert.equal(emptyVariableOf('unknown code replacement =x='), undefined);
  });

  it('leave unknown variables as written and report them; \\{ writes a brace', () => {
    const r = resolver();
    assert.equal(r.resolve('{unknown} \\{date} {date'), '{unknown} {date} {date');
    assert.deepEqual([...r.unknownVariables], ['unknown']);
  });

  it('expand code replacements, also with columns, other delimiters and any case', () => {
    const codes = { gb12: 'Gareth Bale', mu: ['Manchester United', 'MUFC'] };
    assert.equal(
      resolver({ codes }).resolve('=gb12= and =GB12= play for =mu#1= (=mu#2=)'),
      'Gareth Bale and Gareth Bale play for Manchester United (MUFC)',
    );
    assert.equal(resolver({ codes, codeDelimiter: '#' }).resolve('#gb12#'), 'Gareth Bale');
    assert.equal(resolver({ codes: { city: '{city}' } }).resolve('x'), 'x');
    const r = resolver({ codes });
    assert.equal(r.resolve('a = b and 1=2=3 =mu#3='), 'a = b and 1=2=3 =mu#3=');
    assert.equal(r.warnings.length, 2);
  });
});

describe('picture facts', () => {
  it('come from EXIF', async () => {
    const exif = parseExifBasics(
      (await readJpegHead([readSample('exiv2-Reagan.jpg')])).exif ?? Buffer.alloc(0),
    );
    assert.equal(exif.make, 'NIKON CORPORATION');
    assert.equal(exif.model, 'NIKON D1X');
    assert.equal(exif.dateTimeOriginal, '2004:06:21 23:37:53');
    const known = pictureFacts(exif, undefined);
    assert.equal(resolver({}, known).resolve('{camera} {date} {time}'), 'NIKON D1X 21.06.2004 23:37');
  });

  it('fall back to XMP when EXIF lacks them', () => {
    const xmp =
      parseXmpPacket(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description
      xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:aux="http://ns.adobe.com/exif/1.0/aux/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"
      exif:DateTimeOriginal="2021-07-01T18:30:12.25+02:00" aux:SerialNumber="A1" aux:Lens="50mm" tiff:Model="X-T4" tiff:Make="FUJIFILM">
      <exif:ISOSpeedRatings><rdf:Seq><rdf:li>800</rdf:li></rdf:Seq></exif:ISOSpeedRatings></rdf:Description></rdf:RDF>`);
    const known = pictureFacts({}, xmp);
    assert.equal(
      resolver({}, known).resolve('{date} {time} {serial} {lens} {iso} {camera}'),
      '01.07.2021 18:30 A1 50mm 800 FUJIFILM X-T4',
    );
  });

  it('ignore damaged EXIF instead of failing', () => {
    assert.deepEqual(parseExifBasics(Buffer.from('Exif\0\0MM\0*\0\0\xff\xff', 'latin1')), {});
    assert.deepEqual(parseExifBasics(Buffer.from('nonsense')), {});
  });
});

describe('dates', () => {
  it('convert between XMP, IIM, EXIF and typed forms', () => {
    assert.deepEqual(parseXmpDate('2024-05-03T14:22:00.5+02:00'), {
      year: 2024,
      month: 5,
      day: 3,
      hour: 14,
      minute: 22,
      second: 0,
      fraction: '5',
      zone: '+02:00',
    });
    assert.equal(parseXmpDate('2024-13-01'), undefined);
    assert.equal(parseIimDateTime('20240503', '142200-0500'), '2024-05-03T14:22:00-05:00');
    assert.equal(parseIimDateTime('20240000', undefined), '2024');
    assert.equal(parseIimDateTime('2024', undefined), undefined);
    assert.equal(parseExifDateTime('0000:00:00 00:00:00'), undefined);
    assert.equal(normalizeDateInput('3.11.2025'), '2025-11-03');
    assert.equal(normalizeDateInput('2025:11:03 14:05:00'), '2025-11-03T14:05:00');
    assert.equal(normalizeDateInput('2025-11-03T14:05Z'), '2025-11-03T14:05Z');
    assert.equal(normalizeDateInput('31.02.x'), undefined);
    assert.equal(formatDateTokens({ year: 2024, month: 1, day: 2 }, 'D.M.YYYY'), '2.1.2024');
  });
});
