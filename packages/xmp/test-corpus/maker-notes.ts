// MakerNotes for the corpus (generate.ts), built byte by byte: ExifTool copies MakerNotes but
// cannot create them, and the shared samples carry none. Each maker's layout as ExifTool reads
// it (Canon.pm, Nikon.pm, Sony.pm, Panasonic.pm, Apple.pm, FujiFilm.pm): a header, an IFD, and
// offsets counted from the TIFF header (Canon, Sony, Panasonic), from the makernote's own TIFF
// header (Nikon type 3) or from the makernote's start (Apple, Fujifilm). The makernote replaces
// the value of a placeholder UserComment ExifTool wrote, so no other offset moves.

type Entry = [tag: number, type: number, count: number, value: Buffer];

const ascii = (text: string): Entry[3] => Buffer.from(`${text}\0`, 'latin1');
const typeSize: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 7: 1, 9: 4, 10: 8 };

/** An IFD with its out-of-line values after it; offsets are `base` + the position in the result. */
function ifd(entries: Entry[], little: boolean, base: number): Buffer {
  const table = Buffer.alloc(2 + entries.length * 12 + 4);
  const data: Buffer[] = [];
  let dataAt = table.length;
  const u16 = (value: number, at: number) =>
    little ? table.writeUInt16LE(value, at) : table.writeUInt16BE(value, at);
  const u32 = (value: number, at: number) =>
    little ? table.writeUInt32LE(value, at) : table.writeUInt32BE(value, at);
  u16(entries.length, 0);
  for (const [i, [tag, type, count, value]] of entries.entries()) {
    const at = 2 + i * 12;
    u16(tag, at);
    u16(type, at + 2);
    u32(count, at + 4);
    if ((typeSize[type] ?? 1) * count <= 4) value.copy(table, at + 8);
    else {
      u32(base + dataAt, at + 8);
      const padded = value.length % 2 ? Buffer.concat([value, Buffer.alloc(1)]) : value;
      data.push(padded);
      dataAt += padded.length;
    }
  }
  return Buffer.concat([table, ...data]);
}

const shorts = (values: number[], little: boolean) => {
  const out = Buffer.alloc(values.length * 2);
  for (const [i, v] of values.entries()) little ? out.writeUInt16LE(v, i * 2) : out.writeUInt16BE(v, i * 2);
  return out;
};
const longs = (values: number[], little: boolean) => {
  const out = Buffer.alloc(values.length * 4);
  for (const [i, v] of values.entries()) little ? out.writeInt32LE(v, i * 4) : out.writeInt32BE(v, i * 4);
  return out;
};

export interface Maker {
  name: string;
  make: string;
  model: string;
  /** The makernote for an EXIF block of this byte order whose value starts at TIFF offset `at`. */
  build(little: boolean, at: number): Buffer;
}

export const makers: Maker[] = [
  {
    name: 'canon-eos-r5',
    make: 'Canon',
    model: 'Canon EOS R5',
    build: (little, at) =>
      ifd(
        [
          [0x0006, 2, 22, ascii('Canon EOS R5 JPEG Fin')],
          [0x0007, 2, 22, ascii('Firmware Version 1.8.')],
          [0x0009, 2, 12, ascii('Robin Mills')],
          [0x000c, 4, 1, longs([1234567], little)],
        ],
        little,
        at,
      ),
  },
  {
    name: 'nikon-z9',
    make: 'NIKON CORPORATION',
    model: 'NIKON Z 9',
    build: () => {
      const inner = ifd(
        [
          [0x0001, 7, 4, Buffer.from('0211', 'latin1')],
          [0x0002, 3, 2, shorts([0, 400], false)],
          [0x0004, 2, 8, ascii('FINE   ')],
          [0x0005, 2, 13, ascii('AUTO        ')],
          [0x001d, 2, 8, ascii('3012345')],
        ],
        false,
        8,
      );
      return Buffer.concat([
        Buffer.from('Nikon\0\x02\x11\0\0', 'latin1'),
        Buffer.from('MM\0\x2a\0\0\0\x08', 'latin1'),
        inner,
      ]);
    },
  },
  {
    name: 'sony-ilce-7m4',
    make: 'SONY',
    model: 'ILCE-7M4',
    build: (little, at) =>
      Buffer.concat([
        Buffer.from('SONY DSC \0\0\0', 'latin1'),
        ifd(
          [
            [0xb020, 2, 9, ascii('Standard')],
            [0xb000, 1, 4, Buffer.from([3, 0, 0, 0])],
          ],
          little,
          at + 12,
        ),
      ]),
  },
  {
    name: 'panasonic-dmc-lx7',
    make: 'Panasonic',
    model: 'DMC-LX7',
    build: (little, at) =>
      Buffer.concat([
        Buffer.from('Panasonic\0\0\0', 'latin1'),
        ifd(
          [
            [0x0001, 3, 1, shorts([2], little)],
            [0x0002, 7, 4, Buffer.from('0121', 'latin1')],
            [0x0003, 3, 1, shorts([1], little)],
            [0x0051, 2, 20, ascii('LEICA DC VARIO-SUMM')],
          ],
          little,
          at + 12,
        ),
      ]),
  },
  {
    name: 'apple-iphone',
    make: 'Apple',
    model: 'iPhone 15 Pro',
    build: () =>
      Buffer.concat([
        Buffer.from('Apple iOS\0\0\x01MM', 'latin1'),
        ifd(
          [
            [0x0001, 9, 1, longs([14], false)],
            [0x000a, 9, 1, longs([3], false)],
          ],
          false,
          14,
        ),
      ]),
  },
  {
    name: 'fujifilm-x-t5',
    make: 'FUJIFILM',
    model: 'X-T5',
    build: () => {
      const head = Buffer.alloc(12);
      head.write('FUJIFILM', 0, 'latin1');
      head.writeUInt32LE(12, 8);
      return Buffer.concat([
        head,
        ifd(
          [
            [0x0000, 7, 4, Buffer.from('0130', 'latin1')],
            [0x1000, 2, 8, ascii('NORMAL ')],
            [0x1001, 3, 1, shorts([3], true)],
          ],
          true,
          12,
        ),
      ]);
    },
  },
];

/** Turns the UserComment ExifTool wrote (a placeholder) into the maker's makernote, in place. */
export function withMakerNote(jpeg: Buffer, maker: Maker): Buffer {
  const out = Buffer.from(jpeg);
  const tiffAt = out.indexOf(Buffer.from('Exif\0\0', 'latin1')) + 6;
  const little = out.toString('latin1', tiffAt, tiffAt + 2) === 'II';
  const u16 = (at: number) => (little ? out.readUInt16LE(tiffAt + at) : out.readUInt16BE(tiffAt + at));
  const u32 = (at: number) => (little ? out.readUInt32LE(tiffAt + at) : out.readUInt32BE(tiffAt + at));
  const ifd0 = u32(4);
  const entryOf = (ifdAt: number, tag: number) => {
    for (let i = 0; i < u16(ifdAt); i++) if (u16(ifdAt + 2 + i * 12) === tag) return ifdAt + 2 + i * 12;
    throw new Error(`tag ${tag.toString(16)} not found`);
  };
  const exifIfd = u32(entryOf(ifd0, 0x8769) + 8);
  const comment = entryOf(exifIfd, 0x9286);
  const count = u32(comment + 4);
  const valueAt = u32(comment + 8);
  const note = maker.build(little, valueAt);
  if (note.length > count) throw new Error(`${maker.name}: makernote of ${note.length} bytes > ${count}`);
  if (little) out.writeUInt16LE(0x927c, tiffAt + comment);
  else out.writeUInt16BE(0x927c, tiffAt + comment);
  out.fill(0, tiffAt + valueAt, tiffAt + valueAt + count);
  note.copy(out, tiffAt + valueAt);
  return out;
}
