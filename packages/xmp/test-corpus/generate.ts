// Builds the camera-file corpus (issue 26) in files/: tiny images made with ImageMagick that carry
// the metadata of the shared sample JPEGs (copied by ExifTool, MakerNotes included), plus the
// structures ExifTool cannot write, made byte by byte: MPF with a preview and with a gain map,
// IIM under an odd resource signature, FotoStation and AFCP trailers, lenient XMP packets and
// odd bytes between segments. Run: node --import tsx packages/xmp/test-corpus/generate.ts
// Needs exiftool and ImageMagick's convert; the result is committed (README.md).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serializeIim } from '../src/iim.ts';
import { encodeSegment } from '../src/jpeg.ts';
import { MPF_HEADER } from '../src/mpf.ts';
import { headSegments, imagesDir, sosOffset } from '../test/support.ts';
import { makers as makerNotes, withMakerNote } from './maker-notes.ts';

const outDir = path.join(import.meta.dirname, 'files');
const work = mkdtempSync(path.join(tmpdir(), 'corpus-'));
const sample = (name: string) => path.join(imagesDir, name);
const tmp = (name: string) => path.join(work, name);
const exiftool = (...args: string[]) => execFileSync('exiftool', ['-q', '-q', ...args], { stdio: 'pipe' });

/** A small JPEG of ImageMagick's own making (no metadata): a gradient, deterministic. */
function tinyJpeg(name: string, size: string, gradient: string, quality: number): string {
  const file = tmp(name);
  execFileSync('convert', [
    '-size',
    size,
    `gradient:${gradient}`,
    '-strip',
    '-quality',
    String(quality),
    file,
  ]);
  return file;
}

/** `base` with every tag of `source` ExifTool can copy (EXIF with MakerNotes, IPTC, XMP, ICC). */
function withMetadataOf(base: string, source: string, ...more: string[]): Buffer {
  const out = tmp(`copy-${Math.random().toString(36).slice(2)}.jpg`);
  exiftool('-tagsfromfile', source, '-all:all', '-icc_profile', '-thumbnailimage', ...more, '-o', out, base);
  return readFileSync(out);
}

function written(base: string, ...args: string[]): Buffer {
  const out = tmp(`write-${Math.random().toString(36).slice(2)}.jpg`);
  exiftool(...args, '-o', out, base);
  return readFileSync(out);
}

/** A JPEG with an APP2 MPF index before head segment `at` and `second` after EOI (CIPA DC-007). */
function withMpfImage(primary: Buffer, second: Buffer, at: number, type: number): Buffer {
  const segments = headSegments(primary).map((s) => encodeSegment(s.marker, s.payload));
  const before = Buffer.concat([primary.subarray(0, 2), ...segments.slice(0, at)]);
  const after = Buffer.concat([...segments.slice(at), primary.subarray(sosOffset(primary))]);
  const tiff = Buffer.alloc(8 + 2 + 3 * 12 + 4 + 2 * 16);
  const mpfSize = 4 + MPF_HEADER.length + tiff.length;
  const primarySize = before.length + mpfSize + after.length;
  const tiffStart = before.length + 4 + MPF_HEADER.length;
  tiff.write('II*\0', 0, 'latin1');
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(3, 8);
  const entry = (i: number, tag: number, kind: number, count: number, value: number | Buffer) => {
    const p = 10 + i * 12;
    tiff.writeUInt16LE(tag, p);
    tiff.writeUInt16LE(kind, p + 2);
    tiff.writeUInt32LE(count, p + 4);
    if (typeof value === 'number') tiff.writeUInt32LE(value, p + 8);
    else value.copy(tiff, p + 8);
  };
  const entriesAt = 10 + 3 * 12 + 4;
  entry(0, 0xb000, 7, 4, Buffer.from('0100', 'latin1'));
  entry(1, 0xb001, 4, 1, 2);
  entry(2, 0xb002, 7, 32, entriesAt);
  tiff.writeUInt32LE(0x20030000, entriesAt);
  tiff.writeUInt32LE(primarySize, entriesAt + 4);
  tiff.writeUInt32LE(type, entriesAt + 16);
  tiff.writeUInt32LE(second.length, entriesAt + 20);
  tiff.writeUInt32LE(primarySize - tiffStart, entriesAt + 24);
  return Buffer.concat([before, encodeSegment(0xe2, Buffer.concat([MPF_HEADER, tiff])), after, second]);
}

/** Inserts raw bytes at a file offset (after the head segment number `index`, 0 = right after SOI). */
function insertAfterSegment(jpeg: Buffer, index: number, bytes: number[]): Buffer {
  let at = 2;
  for (let i = 0; i < index; i++) at += 2 + jpeg.readUInt16BE(at + 2);
  return Buffer.concat([jpeg.subarray(0, at), Buffer.from(bytes), jpeg.subarray(at)]);
}

/** The bytes replaced in place (same length, so no offset moves). */
function replaceSame(jpeg: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('same length only');
  const at = jpeg.indexOf(Buffer.from(from, 'latin1'));
  if (at < 0) throw new Error(`${from} not found`);
  const out = Buffer.from(jpeg);
  out.write(to, at, 'latin1');
  return out;
}

const iim = (entries: Array<[number, number, string]>) =>
  serializeIim(
    entries.map(([record, dataset, text]) => ({ record, dataset, data: Buffer.from(text, 'latin1') })),
  );

function fotoStationTrailer(): Buffer {
  const record = (tag: number, data: Buffer) => {
    const footer = Buffer.alloc(10);
    footer.writeUInt16BE(tag, 0);
    footer.writeUInt32BE(data.length + 10, 2);
    footer.writeUInt32BE(0xa1b2c3d4, 6);
    return Buffer.concat([data, footer]);
  };
  const softEdit = Buffer.alloc(40);
  softEdit.writeInt32BE(96, 0);
  softEdit.writeInt32BE(64, 4);
  return Buffer.concat([
    record(
      1,
      iim([
        [2, 120, 'Old trailer caption'],
        [2, 110, 'Old Agency'],
        [2, 25, 'old'],
      ]),
    ),
    record(2, softEdit),
  ]);
}

function afcpTrailer(at: number): Buffer {
  const data = iim([
    [2, 120, 'Old AFCP caption'],
    [2, 110, 'Old Agency'],
  ]);
  const header = Buffer.alloc(24);
  header.write('AXS!', 0, 'latin1');
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(1, 6);
  header.write('IPTC', 12, 'latin1');
  header.writeUInt32BE(data.length, 16);
  header.writeUInt32BE(at + 24, 20);
  const end = Buffer.alloc(12);
  end.write('AXS!', 0, 'latin1');
  end.writeUInt32BE(at, 4);
  return Buffer.concat([header, data, end]);
}

function main(): void {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const base = tinyJpeg('base.jpg', '96x64', 'steelblue-khaki', 82);
  const small = readFileSync(tinyJpeg('preview.jpg', '48x32', 'orange-navy', 70));
  const gainMap = readFileSync(tinyJpeg('gainmap.jpg', '48x32', 'gray20-gray90', 70));
  const files = new Map<string, Buffer>();
  const makers = {
    'canon-powershot-s5': 'exiv2-FurnaceCreekInn.jpg',
    'nikon-d1x': 'exiv2-Reagan.jpg',
    'fujifilm-s1pro-gps': 'exiftool-GPS.jpg',
    'fujifilm-2400-xmp': 'exiftool-XMP.jpg',
    'staff-photographer-thumbnail': 'exifr-iptc-staff-photographer-example.jpg',
    'iptc-reference-2025': 'IPTC-PhotometadataRef-Std2025.1.jpg',
    'iptc-reference-2023': 'IPTC-PhotometadataRef-Std2023.2.jpg',
    'exiftool-iptc': 'exiftool-IPTC.jpg',
    photomechanic: 'exiftool-PhotoMechanic.jpg',
    'exiv2-empty': 'exiv2-empty.jpg',
  };
  for (const [name, source] of Object.entries(makers)) files.set(name, withMetadataOf(base, sample(source)));
  const canon = files.get('canon-powershot-s5') as Buffer;
  const iptc2025 = files.get('iptc-reference-2025') as Buffer;
  const canonFile = tmp('canon.jpg');
  writeFileSync(canonFile, canon);

  // Each maker's MakerNotes (built by maker-notes.ts in place of a placeholder UserComment),
  // with the camera's own Artist, Copyright and caption the EXIF mirror rewrites.
  for (const maker of makerNotes) {
    const placeholder = written(
      base,
      `-Make=${maker.make}`,
      `-Model=${maker.model}`,
      '-Artist=Kamera Besitzer',
      '-Copyright=(c) Kamera',
      '-ImageDescription=OLYMPUS DIGITAL CAMERA',
      '-ExifIFD:DateTimeOriginal=2026:05:23 20:15:07',
      `-ExifIFD:UserComment=${'x'.repeat(400)}`,
    );
    files.set(`makernotes-${maker.name}`, withMakerNote(placeholder, maker));
  }

  // Camera-style MPF: a large preview after Exif (Nikon, Canon, Sony, Pentax), a gain map behind
  // an ICC profile (phones, Ultra HDR), and a phone with both Apple's maker and the gain map.
  files.set('mpf-preview-after-exif', withMpfImage(canon, small, 1, 0x00010001));
  files.set('mpf-gainmap-after-icc', withMpfImage(iptc2025, gainMap, 3, 0));
  const phone = written(
    canonFile,
    '-Make=Apple',
    '-Model=iPhone 15 Pro',
    '-XMP-dc:Title=Ultra HDR test',
    '-XMP-xmp:CreatorTool=Camera',
  );
  files.set('phone-gainmap', withMpfImage(phone, gainMap, 2, 0));
  files.set(
    'thumbnail-written',
    written(
      base,
      '-tagsfromfile',
      sample('exiv2-Reagan.jpg'),
      '-exif:all',
      `-ThumbnailImage<=${path.join(work, 'preview.jpg')}`,
    ),
  );

  // Extended XMP: a packet over 64 KB, split by ExifTool into standard and extended parts.
  files.set(
    'extended-xmp',
    written(
      canonFile,
      `-XMP-dc:Description=${'Lange Beschreibung – Köln ✓ '.repeat(2800)}`,
      '-XMP-dc:Title=Extended',
    ),
  );
  files.set(
    'iim-utf8',
    written(
      base,
      '-charset',
      'iptc=UTF8',
      '-IPTC:CodedCharacterSet=UTF8',
      '-IPTC:Caption-Abstract=Köln – Straße ✓',
      '-IPTC:By-line=Jürgen Weiß',
      '-IPTC:Keywords=Fußball',
      '-IPTC:Keywords=Überblick',
    ),
  );
  const latin1 = written(
    base,
    '-charset',
    'iptc=Latin',
    '-IPTC:Caption-Abstract=Müller an der Straße',
    '-IPTC:City=Köln',
    '-IPTC:By-line=Zoë',
  );
  files.set('iim-latin1', latin1);
  files.set('iim-odd-signature', replaceSame(latin1, '8BIM\x04\x04', 'MeSa\x04\x04'));
  files.set(
    'gps-written',
    written(
      canonFile,
      '-GPSLatitude=52.5163',
      '-GPSLatitudeRef=N',
      '-GPSLongitude=13.3777',
      '-GPSLongitudeRef=E',
      '-GPSAltitude=34',
      '-XMP-exif:GPSLatitude=52.5163 N',
    ),
  );

  // Trailers other writers append after EOI (readers that prefer them show the old caption).
  const trailerBase = files.get('exiftool-iptc') as Buffer;
  files.set('fotostation-trailer', Buffer.concat([trailerBase, fotoStationTrailer()]));
  files.set('afcp-trailer', Buffer.concat([trailerBase, afcpTrailer(trailerBase.length)]));

  // Lenient XMP: a packet whose end has no '?>' (a camera trap), an element name with '/' (DxO).
  const fuji = files.get('fujifilm-2400-xmp') as Buffer;
  files.set('xmp-unterminated-packet', replaceSame(fuji, "<?xpacket end='w'?>", "<?xpacket end='w'  "));
  const dxo = written(
    canonFile,
    '-XMP-exif:FNumber=2.8',
    '-XMP-exif:ISO=200',
    '-XMP-photoshop:City=Nantes',
    '-XMP-exif:ExposureProgram#=1',
  );
  const slashed = replaceSame(dxo, '<exif:ExposureProgram>', '<exif:Exposur/Program>');
  files.set('xmp-slash-element', replaceSame(slashed, '</exif:ExposureProgram>', '</exif:Exposur/Program>'));

  // Bytes between segments ExifTool skips: FF 00, FF FF fill before a marker, zero padding.
  files.set('ff00-after-app0', insertAfterSegment(canon, 1, [0xff, 0x00]));
  files.set('ff00-after-exif', insertAfterSegment(canon, 2, [0xff, 0x00, 0xff, 0x00]));
  files.set('fill-ffff-before-marker', insertAfterSegment(canon, 1, [0xff, 0xff, 0xff]));
  files.set('zero-padding', insertAfterSegment(iptc2025, 2, [0, 0, 0, 0, 0, 0]));

  // An editor's export: IIM and XMP that agree, a document id, keywords.
  files.set(
    'editor-export',
    written(
      canonFile,
      '-XMP-photoshop:Headline=Export',
      '-XMP-xmpMM:DocumentID=xmp.did:1234',
      '-IPTC:Headline=Export',
      '-XMP-dc:Subject=one',
      '-XMP-dc:Subject=two',
    ),
  );

  for (const [name, bytes] of [...files].sort(([a], [b]) => a.localeCompare(b)))
    writeFileSync(path.join(outDir, `${name}.jpg`), bytes);
  rmSync(work, { recursive: true, force: true });
  console.log(
    `${files.size} files, ${[...files.values()].reduce((n, b) => n + b.length, 0)} bytes in ${outDir}`,
  );
}

main();
