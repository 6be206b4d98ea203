// Copies of IPTC-IIM in trailers after the image data, which some readers prefer to the APP13
// (issue 26): FotoWare FotoStation records and AFCP (AXS File Concatenation Protocol). Stamping
// writes the new IIM into them, as ExifTool does, so no reader shows the old caption; AFCP's
// offsets count from the start of the file, so they are rewritten for where the trailer lands.
// Layouts as ExifTool reads them (FotoStation.pm, AFCP.pm).

/** Bytes read from the end of a file to find a trailer (one that starts earlier is left as it is). */
export const TRAILER_WINDOW = 1 << 20;

export interface Trailer {
  kind: 'FotoStation' | 'AFCP';
  /** File offset where the trailer starts: the image data is copied up to here. */
  start: number;
  /** The trailer as written at output offset `at`, its IIM replaced by `iim` when given. */
  rebuild(iim: Buffer | undefined, at: number): Buffer;
}

const FOTOSTATION_SIGNATURE = 0xa1b2c3d4;
const FOTOSTATION_FOOTER = 10;
const FOTOSTATION_IPTC = 1;

/** FotoStation records, each followed by a footer (tag, size with the footer, signature), read from the end. */
function fotoStation(end: Buffer, endAt: number): Trailer | undefined {
  const records: Array<{ tag: number; data: Buffer }> = [];
  let pos = end.length;
  while (pos >= FOTOSTATION_FOOTER) {
    const size = end.readUInt32BE(pos - 8);
    if (end.readUInt32BE(pos - 4) !== FOTOSTATION_SIGNATURE || size < FOTOSTATION_FOOTER || size > pos) break;
    records.unshift({
      tag: end.readUInt16BE(pos - 10),
      data: end.subarray(pos - size, pos - FOTOSTATION_FOOTER),
    });
    pos -= size;
  }
  if (!records.some((record) => record.tag === FOTOSTATION_IPTC)) return undefined;
  return {
    kind: 'FotoStation',
    start: endAt + pos,
    rebuild(iim) {
      const parts: Buffer[] = [];
      for (const { tag, data } of records) {
        const bytes = tag === FOTOSTATION_IPTC && iim ? iim : data;
        const footer = Buffer.alloc(FOTOSTATION_FOOTER);
        footer.writeUInt16BE(tag, 0);
        footer.writeUInt32BE(bytes.length + FOTOSTATION_FOOTER, 2);
        footer.writeUInt32BE(FOTOSTATION_SIGNATURE, 6);
        parts.push(bytes, footer);
      }
      return Buffer.concat(parts);
    },
  };
}

const AFCP_RECORD = 12;

/**
 * AFCP: a 12-byte header ("AXS!" big-endian or "AXS*" little-endian, version, entry count,
 * checksum), 12-byte entries (tag, size, file offset), the values, and a 12-byte end record
 * (signature, file offset of the header, checksum). Checksums are written as 0, as ExifTool does.
 */
function afcp(end: Buffer, endAt: number): Trailer | undefined {
  if (end.length < 2 * AFCP_RECORD) return undefined;
  const last = end.subarray(end.length - AFCP_RECORD);
  const signature = last.toString('latin1', 0, 4);
  if (signature !== 'AXS!' && signature !== 'AXS*') return undefined;
  const little = signature === 'AXS*';
  const u16 = (at: number) => (little ? end.readUInt16LE(at) : end.readUInt16BE(at));
  const u32 = (at: number) => (little ? end.readUInt32LE(at) : end.readUInt32BE(at));
  const headerAt = u32(end.length - 8) - endAt;
  if (headerAt < 0 || headerAt + AFCP_RECORD > end.length - AFCP_RECORD) return undefined;
  if (end.toString('latin1', headerAt, headerAt + 4) !== signature) return undefined;
  const version = end.subarray(headerAt + 4, headerAt + 6);
  const count = u16(headerAt + 6);
  const entries: Array<{ tag: string; data: Buffer }> = [];
  for (let i = 0; i < count; i++) {
    const at = headerAt + AFCP_RECORD * (i + 1);
    if (at + AFCP_RECORD > end.length) return undefined;
    const size = u32(at + 4);
    const offset = u32(at + 8) - endAt;
    if (offset < 0 || offset + size > end.length) return undefined;
    entries.push({ tag: end.toString('latin1', at, at + 4), data: end.subarray(offset, offset + size) });
  }
  const put16 = (buffer: Buffer, value: number, at: number) =>
    little ? buffer.writeUInt16LE(value, at) : buffer.writeUInt16BE(value, at);
  const put32 = (buffer: Buffer, value: number, at: number) =>
    little ? buffer.writeUInt32LE(value, at) : buffer.writeUInt32BE(value, at);
  return {
    kind: 'AFCP',
    start: endAt + headerAt,
    rebuild(iim, at) {
      const values = entries.map(({ tag, data }) => (tag === 'IPTC' && iim ? iim : data));
      const head = Buffer.alloc(AFCP_RECORD * (count + 1));
      head.write(signature, 0, 'latin1');
      version.copy(head, 4);
      put16(head, count, 6);
      let valueAt = at + head.length;
      for (const [i, { tag }] of entries.entries()) {
        const entryAt = AFCP_RECORD * (i + 1);
        const value = values[i] ?? Buffer.alloc(0);
        head.write(tag, entryAt, 'latin1');
        put32(head, value.length, entryAt + 4);
        put32(head, valueAt, entryAt + 8);
        valueAt += value.length;
      }
      const endRecord = Buffer.alloc(AFCP_RECORD);
      endRecord.write(signature, 0, 'latin1');
      put32(endRecord, at, 4);
      return Buffer.concat([head, ...values, endRecord]);
    },
  };
}

/**
 * The trailer (FotoStation with IIM, or AFCP) that ends a file, from its last bytes `end`, which
 * start at file offset `endAt`. The caller takes it only when it starts after the image data.
 */
export function findTrailer(end: Buffer, endAt: number): Trailer | undefined {
  return afcp(end, endAt) ?? fotoStation(end, endAt);
}
