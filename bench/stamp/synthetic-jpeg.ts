// Writes large, valid baseline JPEGs for the benchmark: the metadata head (APPn/COM segments)
// of a real sample image, then a real frame of our own: 4:2:0 YCbCr, the standard Huffman
// tables (taken from a sample that uses them), one restart interval per MCU row. Each row is
// Huffman-coded from pseudo-random DCT coefficients (a noise texture, as detailed as a real
// photo in bytes per pixel); a handful of distinct rows are coded once and reused, so making
// 200 files of up to 20 MB takes seconds. Files are streamed to disk, never held whole.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

interface HuffmanCode {
  code: number;
  length: number;
}

type HuffmanTable = Map<number, HuffmanCode>;

interface Segment {
  marker: number;
  payload: Buffer;
}

export function segmentsBeforeSos(jpeg: Buffer): Segment[] {
  const out: Segment[] = [];
  let pos = 2;
  while (pos + 4 <= jpeg.length && jpeg[pos] === 0xff) {
    const marker = jpeg[pos + 1] ?? 0;
    if (marker === 0xda) break;
    const length = jpeg.readUInt16BE(pos + 2);
    out.push({ marker, payload: jpeg.subarray(pos + 4, pos + 2 + length) });
    pos += 2 + length;
  }
  return out;
}

function encode({ marker, payload }: Segment): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xff00 | marker, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/** Huffman codes from a DHT table's BITS and HUFFVAL (JPEG Annex C). */
function buildTable(bits: Buffer, values: Buffer): HuffmanTable {
  const table: HuffmanTable = new Map();
  let code = 0;
  let index = 0;
  for (let length = 1; length <= 16; length++) {
    for (let n = 0; n < (bits[length - 1] ?? 0); n++)
      table.set(values[index++] ?? 0, { code: code++, length });
    code <<= 1;
  }
  return table;
}

interface Tables {
  dht: Buffer[];
  dc: HuffmanTable[];
  ac: HuffmanTable[];
}

/** The four standard (Annex K) tables, from a sample whose DHT segments are exactly those. */
export function standardTables(sample: Buffer): Tables {
  const tables: Tables = { dht: [], dc: [], ac: [] };
  for (const segment of segmentsBeforeSos(sample).filter((entry) => entry.marker === 0xc4)) {
    tables.dht.push(encode(segment));
    let pos = 0;
    while (pos < segment.payload.length) {
      const tcth = segment.payload[pos] ?? 0;
      const bits = segment.payload.subarray(pos + 1, pos + 17);
      const count = bits.reduce((sum, n) => sum + n, 0);
      const table = buildTable(bits, segment.payload.subarray(pos + 17, pos + 17 + count));
      (tcth >> 4 ? tables.ac : tables.dc)[tcth & 15] = table;
      pos += 17 + count;
    }
  }
  if (
    tables.ac.some((table) => table.size !== 162) ||
    tables.dc.some((table) => table.size !== 12) ||
    tables.ac.length !== 2
  ) {
    throw new Error('the sample does not carry the standard Huffman tables');
  }
  return tables;
}

class BitWriter {
  private readonly bytes: number[] = [];
  private acc = 0;
  private count = 0;

  write(code: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((code >> i) & 1);
      if (++this.count === 8) this.flushByte();
    }
  }

  private flushByte(): void {
    this.bytes.push(this.acc);
    if (this.acc === 0xff) this.bytes.push(0x00); // byte stuffing
    this.acc = 0;
    this.count = 0;
  }

  /** Pads the last byte with 1-bits, as restart intervals and the scan end require. */
  finish(): Buffer {
    while (this.count !== 0) this.write(1, 1);
    return Buffer.from(this.bytes);
  }
}

function magnitude(value: number): { size: number; bits: number } {
  const abs = Math.abs(value);
  const size = abs === 0 ? 0 : Math.floor(Math.log2(abs)) + 1;
  return { size, bits: value < 0 ? value + (1 << size) - 1 : value };
}

function put(writer: BitWriter, table: HuffmanTable, symbol: number): void {
  const code = table.get(symbol);
  if (!code) throw new Error(`no Huffman code for symbol ${symbol}`);
  writer.write(code.code, code.length);
}

function encodeBlock(
  writer: BitWriter,
  random: () => number,
  dc: HuffmanTable,
  ac: HuffmanTable,
  dcDiff: number,
): void {
  const d = magnitude(dcDiff);
  put(writer, dc, d.size);
  if (d.size) writer.write(d.bits, d.size);
  // Coefficient statistics of a detailed photo at high quality: low frequencies busy, high ones
  // sparse, magnitudes mostly small, so code lengths and the share of FF bytes
  // match real camera files: FF in 0.3 to 1% of the scan bytes).
  let last = 0;
  const cutoff = 12 + Math.floor(random() * 40); // the block ends (EOB) after this frequency
  for (let k = 1; k <= cutoff; k++) {
    const chance = k < 6 ? 0.95 : 0.85 - (0.35 * k) / cutoff;
    if (random() > chance) continue;
    let size = 1;
    while (size < 8 && random() < (k < 6 ? 0.55 : 0.3)) size++;
    const low = 1 << (size - 1);
    const value = (low + Math.floor(random() * low)) * (random() < 0.5 ? -1 : 1);
    let run = k - last - 1;
    while (run > 15) {
      put(writer, ac, 0xf0);
      run -= 16;
    }
    const m = magnitude(value);
    put(writer, ac, (run << 4) | m.size);
    writer.write(m.bits, m.size);
    last = k;
  }
  if (last < 63) put(writer, ac, 0x00);
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One restart interval: a row of MCUs (4 Y blocks, Cb, Cr), DC predictors starting at 0. */
function encodeRow(tables: Tables, mcus: number, seed: number): Buffer {
  const random = mulberry32(seed);
  const writer = new BitWriter();
  const [dcY, dcC] = tables.dc;
  const [acY, acC] = tables.ac;
  if (!dcY || !dcC || !acY || !acC) throw new Error('tables missing');
  // DC values wander but are pulled back towards mid-grey, so they stay in range.
  const dc = [0, 0, 0];
  for (let m = 0; m < mcus; m++) {
    for (let b = 0; b < 6; b++) {
      const component = b < 4 ? 0 : b - 3;
      const previous = dc[component] ?? 0;
      const next = Math.round(previous * 0.9 + (random() - 0.5) * 60);
      dc[component] = next;
      encodeBlock(writer, random, b < 4 ? dcY : dcC, b < 4 ? acY : acC, next - previous);
    }
  }
  return writer.finish();
}

function quantTables(): Buffer {
  const payload = Buffer.alloc(130);
  payload[0] = 0x00;
  payload[65] = 0x01;
  for (let i = 0; i < 64; i++) {
    payload[1 + i] = 2 + (i >> 3);
    payload[66 + i] = 3 + (i >> 2);
  }
  return encode({ marker: 0xdb, payload });
}

export interface SyntheticFrame {
  width: number;
  rows: Buffer[];
  tables: Tables;
}

export function makeFrame(tables: Tables, width = 6000, variants = 6): SyntheticFrame {
  const mcus = width / 16;
  return {
    width,
    tables,
    rows: Array.from({ length: variants }, (_, i) => encodeRow(tables, mcus, 1000 + i)),
  };
}

/** Streams a JPEG of about targetBytes: head segments of a sample, then the synthetic frame. */
export async function writeSyntheticJpeg(
  path: string,
  head: Buffer[],
  frame: SyntheticFrame,
  targetBytes: number,
): Promise<number> {
  const headBytes = head.reduce((sum, segment) => sum + segment.length, 0);
  const rowBytes = frame.rows.reduce((sum, row) => sum + row.length, 0) / frame.rows.length + 2;
  const rowCount = Math.max(1, Math.round((targetBytes - headBytes - 1000) / rowBytes));
  const height = rowCount * 16;
  const mcusPerRow = frame.width / 16;
  const sof = Buffer.from([
    8,
    height >> 8,
    height & 255,
    frame.width >> 8,
    frame.width & 255,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  const dri = Buffer.from([mcusPerRow >> 8, mcusPerRow & 255]);
  const sos = Buffer.from([3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);
  const out = createWriteStream(path);
  let written = 0;
  const write = async (bytes: Buffer): Promise<void> => {
    written += bytes.length;
    if (!out.write(bytes)) await once(out, 'drain');
  };
  await write(Buffer.from([0xff, 0xd8]));
  for (const segment of head) await write(segment);
  await write(quantTables());
  await write(encode({ marker: 0xc0, payload: sof }));
  for (const dht of frame.tables.dht) await write(dht);
  await write(encode({ marker: 0xdd, payload: dri }));
  await write(encode({ marker: 0xda, payload: sos }));
  for (let row = 0; row < rowCount; row++) {
    await write(frame.rows[(row * 7 + Math.floor(row / 3)) % frame.rows.length] as Buffer);
    if (row < rowCount - 1) await write(Buffer.from([0xff, 0xd0 + (row % 8)]));
  }
  await write(Buffer.from([0xff, 0xd9]));
  out.end();
  await once(out, 'close');
  return written;
}

/** The APPn and COM segments of a sample (its metadata head), ready to copy. */
export function metadataHead(sample: Buffer): Buffer[] {
  return segmentsBeforeSos(sample)
    .filter((segment) => (segment.marker >= 0xe0 && segment.marker <= 0xef) || segment.marker === 0xfe)
    .map(encode);
}
