// A JPEG head's metadata, parsed: EXIF basics, the XMP model (standard plus extended XMP), the
// Photoshop resources and the IIM datasets with their digest state. Shared by stamping and reading.
import type { Readable } from 'node:stream';
import { type ExifBasics, type ExifTextUpdates, parseExifBasics, readExifTexts } from './exif.ts';
import {
  IPTC_DIGEST_ID,
  IPTC_RESOURCE_ID,
  iimDigest,
  isUtf8Iim,
  type PhotoshopResource,
  parseIim,
  parsePhotoshopResources,
} from './iim.ts';
import type { IimState } from './iim-mapping.ts';
import { defaultLimits, type JpegMetadata, type MetadataLimits, readJpegHead } from './jpeg.ts';
import { readJpegXmp } from './xmp-jpeg.ts';
import { emptyPacket, type XmpPacket } from './xmp-model.ts';

/** Everything the engine understands in a JPEG head, parsed. */
export interface ParsedMetadata {
  exif: ExifBasics;
  /** EXIF ImageDescription, Artist and Copyright as found (they mirror XMP). */
  exifTexts: ExifTextUpdates;
  /** The XMP as found (standard plus extended), or an empty packet. */
  packet: XmpPacket;
  hadXmp: boolean;
  resources: PhotoshopResource[];
  iim: IimState;
  warnings: string[];
}

export function parseMetadata(meta: JpegMetadata): ParsedMetadata {
  const warnings = [...meta.warnings];
  const exif = meta.exif ? parseExifBasics(meta.exif) : {};
  const found = readJpegXmp(meta, warnings);
  const resources = meta.photoshop ? parsePhotoshopResources(meta.photoshop, warnings) : [];
  // Resources under the legacy "Adobe_Photoshop2.5:" header fill in what the standard ones lack.
  if (meta.legacyPhotoshop)
    for (const resource of parsePhotoshopResources(meta.legacyPhotoshop, warnings))
      if (!resources.some((known) => known.id === resource.id)) resources.push(resource);
  const iimResource = resources.find((resource) => resource.id === IPTC_RESOURCE_ID);
  const datasets = iimResource ? parseIim(iimResource.data, warnings) : [];
  const iim: IimState = { datasets, utf8: isUtf8Iim(datasets) };
  const digest = resources.find((resource) => resource.id === IPTC_DIGEST_ID);
  if (digest) iim.storedDigest = digest.data;
  if (iimResource) iim.currentDigest = iimDigest(iimResource.data);
  const exifTexts = meta.exif ? readExifTexts(meta.exif) : {};
  return {
    exif,
    exifTexts,
    packet: found ?? emptyPacket(),
    hadXmp: found !== undefined,
    resources,
    iim,
    warnings,
  };
}

/** Reads the metadata segments at the head of a JPEG (stops reading at the image data). */
export async function readHead(
  input: Readable | AsyncIterable<Uint8Array> | Uint8Array,
  limits: Partial<MetadataLimits> = {},
): Promise<JpegMetadata> {
  return readJpegHead(input instanceof Uint8Array ? [input] : input, { ...defaultLimits, ...limits });
}
