// Reading a picture's metadata without writing: for the test-image preview and for using a
// picture as the source of template values.
import type { Readable } from 'node:stream';
import { catalog, localName } from './catalog.ts';
import type { ExifBasics } from './exif.ts';
import { decodeIimText } from './iim.ts';
import type { MetadataLimits } from './jpeg.ts';
import { reconcileIntoXmp } from './mwg-reading.ts';
import { parseMetadata, readHead } from './parsed-metadata.ts';
import { nodeToValues, type TemplateValue } from './template.ts';
import { getProperty, type XmpPacket } from './xmp-model.ts';
import { decodeXmpBytes } from './xmp-packet.ts';

export interface IimEntry {
  record: number;
  dataset: number;
  /** Text of the dataset (binary datasets come out as Windows-1252 text). */
  value: string;
}

export interface JpegMetadataResult {
  /** Text of the standard XMP packet as found in the file. */
  xmpText: string | undefined;
  /** The XMP as a model (standard plus extended XMP), undefined when the file has none. */
  xmp: XmpPacket | undefined;
  /** Values of catalog properties, IIM and EXIF texts reconciled into XMP as MWG recommends, by catalog id. */
  values: TemplateValue[];
  iim: IimEntry[];
  exif: ExifBasics;
  warnings: string[];
}

export async function readJpegMetadata(
  input: Readable | AsyncIterable<Uint8Array> | Uint8Array,
  limits: Partial<MetadataLimits> = {},
): Promise<JpegMetadataResult> {
  const head = await readHead(input, limits);
  const parsed = parseMetadata(head);
  const xmp = parsed.hadXmp ? structuredClone(parsed.packet) : undefined;
  reconcileIntoXmp(parsed.packet, parsed.iim, parsed.exifTexts);
  const values = catalog.flatMap((def) => {
    const node = getProperty(parsed.packet, def.namespace, localName(def));
    return node ? nodeToValues(def, node) : [];
  });
  const iim = parsed.iim.datasets.map(({ record, dataset, data }) => ({
    record,
    dataset,
    value: decodeIimText(data, parsed.iim.utf8),
  }));
  const xmpText = head.xmp ? decodeXmpBytes(head.xmp) : undefined;
  return { xmpText, xmp, values, iim, exif: parsed.exif, warnings: parsed.warnings };
}
