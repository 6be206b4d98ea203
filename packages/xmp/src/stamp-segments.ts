// The engine's work on one file's metadata, without any I/O: parse what the head holds, apply
// the template, and build the new XMP and Photoshop segments plus the EXIF mirror. Runs on the
// caller's thread or on the stamp thread (stamp-thread.ts) when a time limit is set.
import type { ExifTextUpdates } from './exif.ts';
import { updateExifTexts } from './exif-write.ts';
import {
  IPTC_DIGEST_ID,
  IPTC_RESOURCE_ID,
  iimDigest,
  type PhotoshopResource,
  photoshopSegmentPayloads,
  serializeIim,
  serializePhotoshopResources,
} from './iim.ts';
import { syncIimFromXmp } from './iim-mapping.ts';
import { encodeSegment, type JpegMetadata, MAX_SEGMENT_PAYLOAD } from './jpeg.ts';
import { applyTemplate } from './merge.ts';
import { reconcileIntoXmp } from './mwg-reading.ts';
import { parseMetadata } from './parsed-metadata.ts';
import type { Template } from './template.ts';
import { pictureFacts, type VariableOptions } from './variables.ts';
import { xmpSegments } from './xmp-jpeg.ts';
import { altDefault, arrayTexts, getProperty, setProperty, type XmpPacket } from './xmp-model.ts';

export interface StampResult {
  warnings: string[];
  unknownVariables: string[];
}

const APP13 = 0xed;

/** Photoshop resources with the new IIM block and its digest; other resources keep their order. */
function withIim(
  resources: readonly PhotoshopResource[],
  iimBlock: Buffer,
  iimMd5: Buffer,
): PhotoshopResource[] {
  const updated: PhotoshopResource = {
    signature: '8BIM',
    id: IPTC_RESOURCE_ID,
    name: Buffer.alloc(0),
    data: iimBlock,
  };
  const digest: PhotoshopResource = {
    signature: '8BIM',
    id: IPTC_DIGEST_ID,
    name: Buffer.alloc(0),
    data: iimMd5,
  };
  // The first IIM and digest resources are replaced, further copies (stale) left out. Under
  // '8BIM' even where an old writer used another type (MeSa, PHUT, ...): ExifTool and Photoshop
  // read IIM only from an 8BIM resource.
  const out: PhotoshopResource[] = [];
  const replaced = new Set<number>();
  for (const resource of resources) {
    const replacement =
      resource.id === IPTC_RESOURCE_ID ? updated : resource.id === IPTC_DIGEST_ID ? digest : undefined;
    if (!replacement) out.push(resource);
    else if (!replaced.has(resource.id)) {
      replaced.add(resource.id);
      out.push({ ...replacement, name: resource.name });
    }
  }
  if (!replaced.has(IPTC_RESOURCE_ID)) out.push(updated);
  if (!replaced.has(IPTC_DIGEST_ID)) out.push(digest);
  return out;
}

export interface StampedSegments extends StampResult {
  segments: Buffer[];
  /** A new Exif payload when the texts it mirrors changed. */
  exif?: Buffer;
  /** The new IIM block (for its copies in a trailer), when one is written. */
  iim?: Buffer;
}

const DC = 'http://purl.org/dc/elements/1.1/';
const PHOTOSHOP_NS = 'http://ns.adobe.com/photoshop/1.0/';

/** The XMP values EXIF mirrors in ImageDescription, Artist and Copyright. */
function mirroredTexts(packet: XmpPacket): Required<ExifTextUpdates> {
  return {
    imageDescription: altDefault(getProperty(packet, DC, 'description')) ?? '',
    artist: arrayTexts(getProperty(packet, DC, 'creator')).join('; '),
    copyright: altDefault(getProperty(packet, DC, 'rights')) ?? '',
  };
}

/** The mirrored texts the template changed (EXIF is left alone where XMP was not touched). */
function changedTexts(before: Required<ExifTextUpdates>, after: Required<ExifTextUpdates>): ExifTextUpdates {
  const changed: ExifTextUpdates = {};
  for (const key of Object.keys(after) as Array<keyof ExifTextUpdates>)
    if (after[key] !== before[key]) changed[key] = after[key];
  return changed;
}

/** The new metadata segments (XMP APP1s, Photoshop APP13s) for a file's metadata and a template. */
export function stampSegments(
  meta: JpegMetadata,
  template: Template,
  options: VariableOptions = {},
): StampedSegments {
  const parsed = parseMetadata(meta);
  const { packet, iim } = parsed;
  const facts = pictureFacts(parsed.exif, parsed.hadXmp ? packet : undefined);
  reconcileIntoXmp(packet, iim, parsed.exifTexts);
  const before = mirroredTexts(packet);
  const applied = applyTemplate(packet, template, options, facts);
  const exifWarnings: string[] = [];
  const exif = meta.exif
    ? updateExifTexts(
        meta.exif,
        changedTexts(before, mirroredTexts(packet)),
        MAX_SEGMENT_PAYLOAD,
        exifWarnings,
      )
    : undefined;
  const synced = syncIimFromXmp(packet, iim);
  // A file without Photoshop resources gets them only when there is IIM data to carry,
  // not for the bare character-set and record-version datasets.
  const carriesData = synced.datasets.some(
    (entry) => !(entry.record === 1 && entry.dataset === 90) && !(entry.record === 2 && entry.dataset === 0),
  );
  const iimBlock = parsed.resources.length > 0 || carriesData ? serializeIim(synced.datasets) : undefined;
  const iimMd5 = iimBlock && iimDigest(iimBlock);
  // Photoshop's copy of the IIM digest in XMP follows the new IIM instead of going stale.
  if (iimMd5 && getProperty(packet, PHOTOSHOP_NS, 'LegacyIPTCDigest')?.kind === 'simple')
    setProperty(packet, PHOTOSHOP_NS, 'LegacyIPTCDigest', {
      kind: 'simple',
      value: iimMd5.toString('hex').toUpperCase(),
    });
  const segments = xmpSegments(packet);
  if (iimBlock && iimMd5) {
    const irb = serializePhotoshopResources(withIim(parsed.resources, iimBlock, iimMd5));
    for (const payload of photoshopSegmentPayloads(irb, MAX_SEGMENT_PAYLOAD))
      segments.push(encodeSegment(APP13, payload));
  }
  return {
    segments,
    exif,
    iim: iimBlock,
    warnings: [...parsed.warnings, ...applied.warnings, ...synced.warnings, ...exifWarnings],
    unknownVariables: applied.unknownVariables,
  };
}
