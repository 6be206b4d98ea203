// Keeps IPTC-IIM and XMP in step for every catalog property with an IIM dataset, following
// the Metadata Working Group guidance: when reading, XMP wins unless IIM was changed behind its
// back (digest mismatch) or XMP lacks the value; when writing, IIM is rebuilt from XMP, cut at
// the dataset's byte limit (the full value stays in XMP) with a warning.
import { type CatalogProperty, catalog, localName } from './catalog.ts';
import type { IimMapping } from './catalog-types.ts';
import { formatIimDate, formatIimTime, parseIimDateTime, parseXmpDate } from './dates.ts';
import { decodeIimText, type IimDataset, truncateUtf8, UTF8_MARKER } from './iim.ts';
import { isValidUtf8 } from './text-encoding.ts';
import { iimLimitMessage } from './validate.ts';
import {
  altDefault,
  arrayTexts,
  getProperty,
  setProperty,
  simple,
  type XmpNode,
  type XmpPacket,
} from './xmp-model.ts';

export interface IimState {
  datasets: IimDataset[];
  /** 1:90 says UTF-8. */
  utf8: boolean;
  /** Photoshop resource 0x0425 as found, if any. */
  storedDigest?: Buffer;
  /** MD5 of the IIM block as found. */
  currentDigest?: Buffer;
}

const mappedProperties = catalog.filter(
  (def): def is CatalogProperty & { iim: IimMapping } => def.iim !== undefined,
);

function datasetsOf(state: IimState, record: number, dataset: number): IimDataset[] {
  return state.datasets.filter((entry) => entry.record === record && entry.dataset === dataset);
}

/** XMP form of an IIM text: strips the IIM-only parts of genre and subject reference. */
function fromIimText(format: IimMapping['format'], text: string): string {
  if (format === 'genre') return text.replace(/^\d{3}:/, '');
  if (format === 'subject') return /^[^:]*:([^:]*)/.exec(text)?.[1] ?? text;
  return text;
}

function toIimText(format: IimMapping['format'], text: string): string {
  if (format === 'genre') return /^\d{3}:/.test(text) ? text : `000:${text}`;
  if (format === 'subject') return text.includes(':') ? text : `IPTC:${text}`;
  return text;
}

function nodeFromTexts(def: CatalogProperty, texts: string[]): XmpNode | undefined {
  const present = texts.filter((text) => text !== '');
  const [first] = present;
  if (first === undefined) return undefined;
  if (def.type === 'alt') return { kind: 'array', form: 'Alt', items: [simple(first, 'x-default')] };
  if (def.type === 'bag' || def.type === 'seq') {
    return {
      kind: 'array',
      form: def.type === 'seq' ? 'Seq' : 'Bag',
      items: present.map((text) => simple(text)),
    };
  }
  return simple(first);
}

/** The value IIM holds for a property, in XMP form. */
function iimValueAsNode(def: CatalogProperty & { iim: IimMapping }, state: IimState): XmpNode | undefined {
  const { record, dataset, format, timeDataset } = def.iim;
  const texts = datasetsOf(state, record, dataset).map((entry) =>
    decodeIimText(entry.data, state.utf8).trim(),
  );
  if (format === 'date') {
    const time = timeDataset === undefined ? undefined : datasetsOf(state, record, timeDataset)[0];
    const iso = texts[0]
      ? parseIimDateTime(texts[0], time ? decodeIimText(time.data, state.utf8).trim() : undefined)
      : undefined;
    return iso ? simple(iso) : undefined;
  }
  return nodeFromTexts(
    def,
    texts.map((text) => fromIimText(format, text)),
  );
}

/** Texts to write into IIM datasets for a property's XMP value (before byte limits). */
function iimTextsOf(def: CatalogProperty & { iim: IimMapping }, node: XmpNode | undefined): string[] {
  if (!node) return [];
  if (def.type === 'alt') {
    const text = altDefault(node);
    return text ? [text] : [];
  }
  if (def.type === 'bag' || def.type === 'seq') return arrayTexts(node).filter((text) => text !== '');
  return node.kind === 'simple' && node.value !== '' ? [node.value] : [];
}

function sameText(iimText: string, xmpText: string, maxBytes: number | undefined): boolean {
  if (iimText === xmpText) return true;
  // IIM may hold the XMP value cut at the byte limit (MWG: recover the full value from XMP).
  return maxBytes !== undefined && truncateUtf8(xmpText, maxBytes).toString('utf8') === iimText;
}

/** Replaces the x-default (or only) item of an Alt, keeping the other languages. */
export function withDefaultLanguage(existing: XmpNode | undefined, value: XmpNode): XmpNode {
  if (existing?.kind !== 'array' || existing.form !== 'Alt' || value.kind !== 'array') return value;
  const text = altDefault(value) ?? '';
  const others = existing.items.filter((item) => item.lang?.toLowerCase() !== 'x-default');
  return { ...existing, items: [simple(text, 'x-default'), ...others] };
}

/**
 * Whether the legacy metadata (IIM, and by the same token EXIF) was not changed since an
 * XMP-aware writer last synchronised it: no digest, or the stored digest still matches the IIM.
 */
export function unchangedSinceDigest(state: IimState): boolean {
  return (
    state.storedDigest === undefined ||
    (state.currentDigest !== undefined && state.storedDigest.equals(state.currentDigest))
  );
}

/**
 * MWG reading rule per mapped property: keep XMP when it exists and IIM was not changed since
 * it was last synchronised (no digest, or the digest matches); otherwise take IIM, unless IIM
 * only holds the XMP value cut at the byte limit.
 */
export function reconcileIimIntoXmp(packet: XmpPacket, state: IimState): void {
  const digestMatches = unchangedSinceDigest(state);
  for (const def of mappedProperties) {
    const fromIim = iimValueAsNode(def, state);
    if (!fromIim) continue;
    const xmp = getProperty(packet, def.namespace, localName(def));
    if (xmp && digestMatches) continue;
    if (xmp && def.iim.format !== 'date') {
      const iimTexts = iimTextsOf(def, fromIim);
      const xmpTexts = iimTextsOf(def, xmp);
      const same =
        iimTexts.length === xmpTexts.length &&
        iimTexts.every((text, index) => sameText(text, xmpTexts[index] ?? '', def.iim.maxBytes));
      if (same) continue;
    }
    if (xmp && def.iim.format === 'date' && sameDate(xmp, fromIim)) continue;
    setProperty(
      packet,
      def.namespace,
      localName(def),
      def.type === 'alt' ? withDefaultLanguage(xmp, fromIim) : fromIim,
    );
  }
}

function sameDate(xmp: XmpNode, iim: XmpNode): boolean {
  if (xmp.kind !== 'simple' || iim.kind !== 'simple') return false;
  // IIM carries no fractions of seconds; compare what both can hold.
  return xmp.value.replace(/\.\d+/, '').startsWith(iim.value.replace(/([+-]\d{2}:\d{2}|Z)$/, ''));
}

/**
 * Whether XMP's date says what IIM's date and time say, as far as the less precise of the two
 * goes: XMP without the zone, or without the time (a date alone), against IIM's 00:00:00+00:00.
 */
function sameInstant(xmp: XmpNode, iim: XmpNode): boolean {
  if (xmp.kind !== 'simple' || iim.kind !== 'simple') return false;
  const bare = (value: string) => value.replace(/\.\d+/, '').replace(/([+-]\d{2}:\d{2}|Z)$/, '');
  const [a, b] = [bare(xmp.value), bare(iim.value)];
  return a.startsWith(b) || b.startsWith(a);
}

/** 2:100 Country/Primary Location Code. */
const COUNTRY_CODE = 100;

export interface IimSyncResult {
  datasets: IimDataset[];
  warnings: string[];
}

/** Non-text datasets that must not be re-encoded (record version, binary previews, vendor data). */
function isBinaryDataset(dataset: number): boolean {
  return dataset === 0 || dataset === 125 || dataset >= 200;
}

/** A kept text dataset: as it was, or converted to UTF-8 when it was in a legacy character set. */
function keptDataset(entry: IimDataset, state: IimState): IimDataset {
  if (!state.utf8 && entry.record === 2 && !isBinaryDataset(entry.dataset) && !isValidUtf8(entry.data))
    return { ...entry, data: Buffer.from(decodeIimText(entry.data, false), 'utf8') };
  return entry;
}

/**
 * The datasets a property had, when they still say what XMP says: the same texts in the same
 * order once read as XMP (a genre without its `000:` number, a subject reference that is just a
 * name). Another writer's form is kept byte for byte rather than rebuilt in ours.
 */
function unchangedDatasets(
  def: CatalogProperty & { iim: IimMapping },
  node: XmpNode | undefined,
  state: IimState,
): IimDataset[] | undefined {
  const { record, dataset, format, repeatable } = def.iim;
  if (format === 'date') return undefined;
  const existing = datasetsOf(state, record, dataset);
  if (existing.length === 0) return undefined;
  const wanted = iimTextsOf(def, node);
  const found = existing.map((entry) => fromIimText(format, decodeIimText(entry.data, state.utf8).trim()));
  const same =
    found.length === (repeatable ? wanted.length : Math.min(wanted.length, 1)) &&
    found.every((text, index) => text === wanted[index]);
  // Empty datasets say what an absent XMP value says (nothing): kept too, not dropped.
  const emptyBoth = wanted.length === 0 && found.every((text) => text === '');
  return same || emptyBoth ? existing.map((entry) => keptDataset(entry, state)) : undefined;
}

/**
 * Rebuilds IIM from the final XMP: mapped datasets come from XMP unless they already say the
 * same, every other dataset is kept. The block is marked UTF-8 (1:90); text of kept datasets in a
 * legacy character set is converted so it still reads the same.
 */
export function syncIimFromXmp(packet: XmpPacket, state: IimState): IimSyncResult {
  const warnings: string[] = [];
  const mappedKeys = new Set<string>();
  for (const def of mappedProperties) {
    mappedKeys.add(`${def.iim.record}:${def.iim.dataset}`);
    if (def.iim.timeDataset !== undefined) mappedKeys.add(`${def.iim.record}:${def.iim.timeDataset}`);
  }
  const kept: IimDataset[] = [];
  for (const entry of state.datasets) {
    if (mappedKeys.has(`${entry.record}:${entry.dataset}`)) continue;
    if (entry.record === 1 && entry.dataset === 90) continue;
    kept.push(keptDataset(entry, state));
  }
  const written: IimDataset[] = [];
  for (const def of mappedProperties) {
    const node = getProperty(packet, def.namespace, localName(def));
    const { record, dataset, format, maxBytes, timeDataset } = def.iim;
    if (format === 'date') {
      // The date and time another writer wrote stay as they were while XMP says the same
      // instant (XMP often lacks the zone IIM has: rebuilt, IIM would lose it).
      const fromIim = iimValueAsNode(def, state);
      if (node && fromIim && sameInstant(node, fromIim)) {
        for (const number of timeDataset === undefined ? [dataset] : [dataset, timeDataset])
          written.push(...datasetsOf(state, record, number).map((entry) => keptDataset(entry, state)));
        continue;
      }
      const date = node?.kind === 'simple' ? parseXmpDate(node.value) : undefined;
      if (node && !date)
        warnings.push(
          `${def.title.en}: "${altDefault(node) ?? ''}" is not a date; IPTC-IIM ${def.iim.name} left out`,
        );
      if (date) {
        written.push({ record, dataset, data: Buffer.from(formatIimDate(date), 'ascii') });
        const time = formatIimTime(date);
        if (time && timeDataset !== undefined)
          written.push({ record, dataset: timeDataset, data: Buffer.from(time, 'ascii') });
      }
      continue;
    }
    const unchanged = unchangedDatasets(def, node, state);
    if (unchanged) {
      written.push(...unchanged);
      continue;
    }
    const texts = iimTextsOf(def, node).map((text) => toIimText(format, text));
    // IIM's country code is exactly three letters (ISO 3166-1 alpha-3); XMP often holds two
    // ("US"): written as it is, ExifTool -validate would warn. Left out, and said.
    if (
      record === 2 &&
      dataset === COUNTRY_CODE &&
      texts[0] !== undefined &&
      !/^[A-Za-z]{3}$/.test(texts[0])
    ) {
      warnings.push(
        `${def.title.en}: "${texts[0]}" is not a three-letter code; IPTC-IIM ${def.iim.name} left out`,
      );
      continue;
    }
    for (const text of def.iim.repeatable ? texts : texts.slice(0, 1)) {
      const data = maxBytes === undefined ? Buffer.from(text, 'utf8') : truncateUtf8(text, maxBytes);
      if (maxBytes !== undefined && data.length < Buffer.byteLength(text, 'utf8')) {
        warnings.push(iimLimitMessage(def.title.en, def.iim, text));
      }
      written.push({ record, dataset, data });
    }
  }
  const record2 = [...kept.filter((entry) => entry.record === 2), ...written];
  if (!record2.some((entry) => entry.dataset === 0)) {
    record2.push({ record: 2, dataset: 0, data: Buffer.from([0, 4]) }); // ApplicationRecordVersion 4
  }
  const datasets = [
    ...kept.filter((entry) => entry.record === 1),
    { record: 1, dataset: 90, data: Buffer.from(UTF8_MARKER) },
    ...record2,
    ...kept.filter((entry) => entry.record !== 1 && entry.record !== 2),
  ];
  // IIM wants datasets in record and number order; the sort is stable, so repeats keep theirs.
  datasets.sort((a, b) => a.record - b.record || a.dataset - b.dataset);
  return { datasets, warnings };
}
