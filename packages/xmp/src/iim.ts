// IPTC-IIM datasets inside the Photoshop image resource block ("Photoshop 3.0" APP13 in JPEG):
// byte formats only. Which dataset holds which catalog property is iim-mapping.ts.
import { createHash } from 'node:crypto';
import { MetadataError } from './errors.ts';
import { decodeUtf8Lenient, decodeUtf8OrLegacy } from './text-encoding.ts';

export interface IimDataset {
  record: number;
  dataset: number;
  data: Buffer;
}

export interface PhotoshopResource {
  /** '8BIM' nearly always; a few old writers used other four-letter types. */
  signature: string;
  id: number;
  /** Pascal-string name, raw bytes without the length byte (almost always empty). */
  name: Buffer;
  data: Buffer;
}

export const PHOTOSHOP_HEADER = Buffer.from('Photoshop 3.0\0', 'latin1');
export const IPTC_RESOURCE_ID = 0x0404;
export const IPTC_DIGEST_ID = 0x0425;
/** 1:90 Coded Character Set, ESC % G = UTF-8 (ISO 2022). */
export const UTF8_MARKER = Buffer.from([0x1b, 0x25, 0x47]);

const resourceSignatures = new Set(['8BIM', 'PHUT', 'AgHg', 'DCSR', 'MeSa', '8B64']);

/** Parses IIM datasets; stops (with a warning) at bytes that are not a dataset, as ExifTool does. */
export function parseIim(block: Uint8Array, warnings: string[] = []): IimDataset[] {
  const buf = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
  const datasets: IimDataset[] = [];
  let pos = 0;
  while (pos < buf.length) {
    if (buf[pos] !== 0x1c) {
      // NUL padding after the last dataset is normal; anything else is damage.
      if (buf.subarray(pos).some((byte) => byte !== 0))
        warnings.push(`IPTC-IIM: unexpected byte at offset ${pos}; the rest was ignored`);
      break;
    }
    if (pos + 5 > buf.length) {
      warnings.push('IPTC-IIM: dataset header cut off; the rest was ignored');
      break;
    }
    const record = buf.readUInt8(pos + 1);
    const dataset = buf.readUInt8(pos + 2);
    let length = buf.readUInt16BE(pos + 3);
    pos += 5;
    if (length & 0x8000) {
      // Extended dataset: the low bits give the size of the length field (IIM 4, 1.5.3).
      const sizeOfLength = length & 0x7fff;
      if (sizeOfLength < 1 || sizeOfLength > 4 || pos + sizeOfLength > buf.length) {
        warnings.push(`IPTC-IIM: bad extended length in ${record}:${dataset}; the rest was ignored`);
        break;
      }
      length = buf.readUIntBE(pos, sizeOfLength);
      pos += sizeOfLength;
    }
    if (pos + length > buf.length) {
      warnings.push(
        `IPTC-IIM: dataset ${record}:${dataset} runs past the end of the block; the rest was ignored`,
      );
      break;
    }
    datasets.push({ record, dataset, data: Buffer.from(buf.subarray(pos, pos + length)) });
    pos += length;
  }
  return datasets;
}

export function serializeIim(datasets: readonly IimDataset[]): Buffer {
  const parts: Buffer[] = [];
  for (const { record, dataset, data } of datasets) {
    if (data.length < 0x8000) {
      const header = Buffer.alloc(5);
      header.writeUInt8(0x1c, 0);
      header.writeUInt8(record, 1);
      header.writeUInt8(dataset, 2);
      header.writeUInt16BE(data.length, 3);
      parts.push(header, data);
    } else {
      const header = Buffer.alloc(9);
      header.writeUInt8(0x1c, 0);
      header.writeUInt8(record, 1);
      header.writeUInt8(dataset, 2);
      header.writeUInt16BE(0x8004, 3);
      header.writeUInt32BE(data.length, 5);
      parts.push(header, data);
    }
  }
  return Buffer.concat(parts);
}

/** Parses the 8BIM resources of a Photoshop image resource block (APP13 payloads joined). */
export function parsePhotoshopResources(block: Uint8Array, warnings: string[] = []): PhotoshopResource[] {
  const buf = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
  const resources: PhotoshopResource[] = [];
  let pos = 0;
  while (pos + 12 <= buf.length) {
    const signature = buf.toString('latin1', pos, pos + 4);
    if (!resourceSignatures.has(signature)) {
      if (buf.subarray(pos).some((byte) => byte !== 0))
        warnings.push(`Photoshop resources: unknown block at offset ${pos}; the rest was ignored`);
      break;
    }
    const id = buf.readUInt16BE(pos + 4);
    const nameLength = buf.readUInt8(pos + 6);
    const nameFieldLength = (nameLength + 2) & ~1; // length byte + name, padded to even
    const sizeAt = pos + 6 + nameFieldLength;
    if (sizeAt + 4 > buf.length) {
      warnings.push(`Photoshop resource 0x${id.toString(16)} is cut off; it was dropped`);
      break;
    }
    const size = buf.readUInt32BE(sizeAt);
    const dataAt = sizeAt + 4;
    if (dataAt + size > buf.length) {
      warnings.push(`Photoshop resource 0x${id.toString(16)} runs past the end of the block; it was dropped`);
      break;
    }
    resources.push({
      signature,
      id,
      name: Buffer.from(buf.subarray(pos + 7, pos + 7 + nameLength)),
      data: Buffer.from(buf.subarray(dataAt, dataAt + size)),
    });
    pos = dataAt + size + (size & 1);
  }
  return resources;
}

export function serializePhotoshopResources(resources: readonly PhotoshopResource[]): Buffer {
  const parts: Buffer[] = [];
  for (const { signature, id, name, data } of resources) {
    const nameLength = Math.min(name.length, 255);
    const nameField = Buffer.alloc((nameLength + 2) & ~1);
    nameField.writeUInt8(nameLength, 0);
    name.copy(nameField, 1, 0, nameLength);
    const header = Buffer.alloc(6);
    header.write(signature, 0, 4, 'latin1');
    header.writeUInt16BE(id, 4);
    const size = Buffer.alloc(4);
    size.writeUInt32BE(data.length, 0);
    parts.push(header, nameField, size, data);
    if (data.length & 1) parts.push(Buffer.alloc(1));
  }
  return Buffer.concat(parts);
}

/** MD5 of the IIM block, the value Photoshop, ExifTool and Photo Mechanic keep in resource 0x0425. */
export function iimDigest(iimBlock: Uint8Array): Buffer {
  return createHash('md5').update(iimBlock).digest();
}

export function isUtf8Iim(datasets: readonly IimDataset[]): boolean {
  const marker = datasets.find((entry) => entry.record === 1 && entry.dataset === 90);
  return marker?.data.equals(UTF8_MARKER) ?? false;
}

/**
 * Text of a dataset. With the UTF-8 marker, UTF-8; without it, UTF-8 when the bytes are valid
 * UTF-8 (what most modern writers produce anyway) and Windows-1252 otherwise.
 */
export function decodeIimText(data: Uint8Array, utf8: boolean): string {
  return utf8 ? decodeUtf8Lenient(data) : decodeUtf8OrLegacy(data);
}

/** UTF-8 bytes of value cut to at most maxBytes, never inside a character. */
export function truncateUtf8(value: string, maxBytes: number): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length <= maxBytes) return bytes;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

export function photoshopSegmentPayloads(irb: Buffer, maxPayload: number): Buffer[] {
  if (maxPayload <= PHOTOSHOP_HEADER.length)
    throw new MetadataError('INVALID_IIM', 'APP13 payload limit too small');
  const room = maxPayload - PHOTOSHOP_HEADER.length;
  const payloads: Buffer[] = [];
  for (let offset = 0; offset < irb.length || payloads.length === 0; offset += room) {
    payloads.push(Buffer.concat([PHOTOSHOP_HEADER, irb.subarray(offset, offset + room)]));
  }
  return payloads;
}
