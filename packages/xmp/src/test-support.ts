// Shared helpers for the tests of this package (not part of the public API).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { catalog } from './catalog.ts';
import type { FieldDef } from './catalog-types.ts';
import { type StampOptions, type StampResult, stampJpeg } from './stamp.ts';
import type { Template, TemplateValue } from './template.ts';
import { emptyPacket, type XmpPacket } from './xmp-model.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const sharedData = path.resolve(repoRoot, '../shared/data');
export const imagesDir = path.join(sharedData, 'images');

export function sampleImages(): string[] {
  return readdirSync(imagesDir)
    .filter((name) => name.endsWith('.jpg'))
    .sort();
}

export function readSample(name: string): Buffer {
  return readFileSync(path.join(imagesDir, name));
}

/** A Readable delivering the bytes in chunks of the given size (1 = byte by byte). */
export function chunkedStream(bytes: Buffer, chunkSize = 65536): Readable {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += chunkSize)
    chunks.push(bytes.subarray(offset, offset + chunkSize));
  return Readable.from(chunks, { objectMode: false });
}

export class CollectingWritable extends Writable {
  private readonly parts: Buffer[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.parts.push(chunk);
    callback();
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export async function stampBuffer(
  input: Buffer,
  template: Template,
  options: StampOptions = {},
  chunkSize?: number,
): Promise<StampResult & { output: Buffer }> {
  const sink = new CollectingWritable();
  const result = await stampJpeg(chunkedStream(input, chunkSize), sink, template, options);
  return { ...result, output: sink.bytes() };
}

/** Offset of the first SOS marker, found by walking the segments (not by searching bytes), over padding. */
export function sosOffset(jpeg: Buffer): number {
  let pos = 2;
  while (pos + 4 <= jpeg.length) {
    if (jpeg[pos] !== 0xff) {
      pos++; // padding between segments
      continue;
    }
    const marker = jpeg[pos + 1] ?? 0;
    if (marker === 0xff) {
      pos++;
      continue;
    }
    if (marker === 0xda) return pos;
    pos += 2 + jpeg.readUInt16BE(pos + 2);
  }
  throw new Error('no SOS');
}

export interface SegmentInfo {
  marker: number;
  payload: Buffer;
}

/** Segments before SOS. */
export function headSegments(jpeg: Buffer): SegmentInfo[] {
  const out: SegmentInfo[] = [];
  let pos = 2;
  for (;;) {
    const marker = jpeg[pos + 1] ?? 0;
    if (marker === 0xda) return out;
    const length = jpeg.readUInt16BE(pos + 2);
    out.push({ marker, payload: jpeg.subarray(pos + 4, pos + 2 + length) });
    pos += 2 + length;
  }
}

/** Deterministic PRNG (mulberry32) so fuzz failures can be replayed from the seed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A test value for a leaf field: the right syntax for its format, non-ASCII text otherwise. */
function sampleValue(field: FieldDef, label: string): string {
  if (field.xmpName === 'exif:GPSLatitude') return '52,31.2N';
  if (field.xmpName === 'exif:GPSLongitude') return '13,24.6E';
  if (field.xmpName === 'exif:GPSAltitudeRef') return '0';
  if (field.xmpName === 'xmp:Rating') return '3';
  if (field.xmpName === 'Iptc4xmpCore:CountryCode' || field.xmpName === 'Iptc4xmpExt:CountryCode')
    return 'DEU';
  if (field.xmpName === 'Iptc4xmpCore:SubjectCode') return `1505400${label.length % 10}`;
  switch (field.valueFormat) {
    case 'number':
      return `0.${label.length}5`;
    case 'integer':
      return String(20 + label.length);
    case 'date-time':
      return '2024-05-03T14:22:00+02:00';
    case 'uri':
    case 'url':
      return `https://example.com/${encodeURIComponent(label)}`;
    default:
      return `${label} Größe «ü» ✓`;
  }
}

const longText = 'Überlänge: '.padEnd(300, 'äöü ß ');

/**
 * Values for every catalog property and every structure field: two items per array, three
 * languages per language alternative, long text where IIM has a short limit.
 */
export function fullTemplate(): Template {
  const values: TemplateValue[] = [];
  const modes: Template['modes'] = {};
  const leaf = (field: FieldDef, path: string, position: number | undefined, label: string): void => {
    const push = (value: string, extra: Partial<TemplateValue> = {}): void => {
      values.push({
        propertytypeids: path,
        value,
        ...(position === undefined ? {} : { position }),
        ...extra,
      });
    };
    if (field.type === 'alt') {
      push(`${label} x-default ✓`);
      push(`${label} Deutsch ä`, { lang: 'de' });
      push(`${label} English`, { lang: 'en-GB' });
    } else {
      push(sampleValue(field, label));
    }
  };
  const fill = (field: FieldDef, path: string, position: number | undefined, top: boolean): void => {
    const isArray = field.type === 'bag' || field.type === 'seq';
    if (field.type === 'structure') {
      for (const child of field.fields ?? []) fill(child, `${path},${child.id}`, position, false);
    } else if (isArray) {
      for (const index of [0, 1]) {
        const itemPath = top ? path : `${path}[${index}]`;
        const itemPosition = top ? index : position;
        if (field.arrayOfStructures) {
          for (const child of field.fields ?? []) fill(child, `${itemPath},${child.id}`, itemPosition, false);
        } else {
          values.push({
            propertytypeids: itemPath,
            value: sampleValue(field, `${path} ${index}`),
            ...(itemPosition === undefined ? {} : { position: itemPosition }),
          });
        }
      }
    } else {
      leaf(field, path, position, `${path}${position === undefined ? '' : ` #${position}`}`);
    }
  };
  for (const def of catalog) {
    modes[def.id] = 'replace';
    fill(def, def.id, undefined, true);
  }
  for (const id of ['headline', 'cityName', 'creditLine']) {
    const value = values.find((entry) => entry.propertytypeids === id);
    if (value) value.value = longText;
  }
  return { modes, values };
}

/** A packet of `count` simple properties (large-packet and time-limit tests). */
export function manyProperties(count: number): XmpPacket {
  const packet = emptyPacket();
  for (let i = 0; i < count; i++)
    packet.properties.push({
      ns: 'urn:test:many/',
      name: `p${i}`,
      node: { kind: 'simple', value: `Wert ${i} ${'x'.repeat(i % 40)}` },
    });
  return packet;
}

/** An empty sample JPEG with `segments` right after SOI. */
export function withSegments(segments: Buffer[]): Buffer {
  const empty = readSample('exiv2-empty.jpg');
  return Buffer.concat([empty.subarray(0, 2), ...segments, empty.subarray(2)]);
}
