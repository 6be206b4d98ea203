// Reading the three kinds of metadata as one (MWG guidelines): XMP is the reference; IIM and
// the EXIF texts that mirror XMP (ImageDescription, Artist, Copyright) win where they were
// changed by a writer that did not update XMP, which the IIM digest tells: when the stored
// digest no longer matches, or XMP lacks the value. EXIF comes before IIM (MWG precedence),
// but only where EXIF itself differs from the XMP as found.
import type { ExifTextUpdates } from './exif.ts';
import {
  type IimState,
  reconcileIimIntoXmp,
  unchangedSinceDigest,
  withDefaultLanguage,
} from './iim-mapping.ts';
import {
  altDefault,
  arrayTexts,
  getProperty,
  setProperty,
  simple,
  type XmpNode,
  type XmpPacket,
} from './xmp-model.ts';

const DC = 'http://purl.org/dc/elements/1.1/';

/** EXIF text field, its dc: property, and how the property reads as one text. */
const mirrors: Array<[keyof ExifTextUpdates, string, (node: XmpNode | undefined) => string | undefined]> = [
  ['imageDescription', 'description', altDefault],
  ['artist', 'creator', (node) => (node ? arrayTexts(node).join('; ') : undefined)],
  ['copyright', 'rights', altDefault],
];

function exifNode(name: string, text: string, existing: XmpNode | undefined): XmpNode {
  if (name === 'creator')
    return {
      kind: 'array',
      form: 'Seq',
      items: text
        .split(';')
        .map((part) => part.trim())
        .filter((part) => part !== '')
        .map((part) => simple(part)),
    };
  return withDefaultLanguage(existing, { kind: 'array', form: 'Alt', items: [simple(text, 'x-default')] });
}

/** Merges IIM and the EXIF texts into the packet where MWG says they win. */
export function reconcileIntoXmp(packet: XmpPacket, iim: IimState, exifTexts: ExifTextUpdates): void {
  const unchanged = unchangedSinceDigest(iim);
  const fromExif: Array<[string, XmpNode]> = [];
  for (const [field, name, asText] of mirrors) {
    const text = exifTexts[field]?.trim();
    if (!text) continue; // an empty or blank EXIF field says nothing
    const existing = getProperty(packet, DC, name);
    if (existing && (unchanged || asText(existing) === text)) continue;
    fromExif.push([name, exifNode(name, text, existing)]);
  }
  reconcileIimIntoXmp(packet, iim);
  for (const [name, node] of fromExif) setProperty(packet, DC, name, node);
}
