// Rewrites the IFD0 texts that mirror XMP (ImageDescription, Artist, Copyright) without touching
// a byte another tag owns. Damaged EXIF often has entries whose values overlap, share an offset
// or point into an IFD table; writing such a slot in place would overwrite Make, Artist or the
// Exif IFD. So a text is written in place only where its slot belongs to that tag alone and the
// new text fits; otherwise it is appended after the block, and when the IFD0 table itself is
// shared with other data, a copy of IFD0 is appended too and the header points to it (as
// ExifTool rebuilds IFD0). The old bytes stay where they are, so every other tag reads the same.
import { EXIF_HEADER, type ExifTextUpdates, Tiff, textTags, typeSizes } from './exif.ts';

const TAG_EXIF_IFD = 0x8769;
const TAG_GPS_IFD = 0x8825;
const TAG_INTEROP_IFD = 0xa005;
const TAG_SUB_IFDS = 0x014a;
const TAG_THUMBNAIL_OFFSET = 0x0201;
const TAG_THUMBNAIL_LENGTH = 0x0202;
const TAG_STRIP_OFFSETS = 0x0111;
const TAG_STRIP_BYTE_COUNTS = 0x0117;
const pointerTags = new Set([TAG_EXIF_IFD, TAG_GPS_IFD, TAG_INTEROP_IFD, TAG_SUB_IFDS]);
const MAX_IFDS = 64;
const MAX_ENTRIES = 1000;
const MAX_ARRAY = 4096;

/** A byte range of the TIFF block that something reads, and who reads it. */
interface Span {
  start: number;
  end: number;
  owner: string;
}

interface RawEntry {
  at: number;
  tag: number;
  type: number;
  count: number;
  /** Bytes of the value (type size times count). */
  size: number;
  /** Where the value is: inside the entry when it takes 4 bytes or fewer. */
  valueAt: number;
}

interface Ifd0 {
  at: number;
  count: number;
  /** End of the table including the next-IFD pointer. */
  end: number;
  entries: RawEntry[];
}

function rawEntries(tiff: Tiff, at: number): RawEntry[] | undefined {
  const count = tiff.u16(at);
  if (count === undefined || count > MAX_ENTRIES) return undefined;
  const out: RawEntry[] = [];
  for (let i = 0; i < count; i++) {
    const entryAt = at + 2 + i * 12;
    const tag = tiff.u16(entryAt);
    const type = tiff.u16(entryAt + 2);
    const n = tiff.u32(entryAt + 4);
    if (tag === undefined || type === undefined || n === undefined) break;
    const size = (typeSizes[type] ?? 0) * n;
    const valueAt = size <= 4 ? entryAt + 8 : (tiff.u32(entryAt + 8) ?? Number.MAX_SAFE_INTEGER);
    out.push({ at: entryAt, tag, type, count: n, size, valueAt });
  }
  return out;
}

/** The numbers of an integer array value (offsets, byte counts), bounded. */
function integers(tiff: Tiff, entry: RawEntry): number[] {
  const out: number[] = [];
  const width = entry.type === 3 ? 2 : entry.type === 4 || entry.type === 13 ? 4 : 0;
  for (let i = 0; width > 0 && i < Math.min(entry.count, MAX_ARRAY); i++) {
    const value = width === 2 ? tiff.u16(entry.valueAt + i * 2) : tiff.u32(entry.valueAt + i * 4);
    if (value === undefined) break;
    out.push(value);
  }
  return out;
}

/** Every range something reads: header, each IFD table, each out-of-line value, thumbnail, strips. */
function ownedSpans(tiff: Tiff): { spans: Span[]; ifd0?: Ifd0; beyondEnd: boolean } {
  const length = tiff.buf.length;
  const spans: Span[] = [{ start: 0, end: 8, owner: 'header' }];
  let beyondEnd = false;
  const add = (start: number, size: number, owner: string): void => {
    if (size <= 0) return;
    if (start + size > length) beyondEnd = true;
    if (start < length) spans.push({ start, end: Math.min(length, start + size), owner });
  };
  const ifd0At = tiff.u32(4);
  const queue: Array<{ at: number; chain: boolean }> =
    ifd0At === undefined ? [] : [{ at: ifd0At, chain: true }];
  const parsed = new Set<number>();
  let ifd0: Ifd0 | undefined;
  for (let reference = 0; queue.length > 0 && reference < MAX_IFDS; reference++) {
    const { at, chain } = queue.shift() as { at: number; chain: boolean };
    const entries = rawEntries(tiff, at);
    if (!entries) continue;
    const count = tiff.u16(at) ?? 0;
    const end = at + 2 + count * 12 + 4;
    // Every reference gets a span of its own: an IFD reached twice overlaps itself.
    add(at, end - at, `ifd ${reference}`);
    if (reference === 0) ifd0 = { at, count, end, entries };
    if (parsed.has(at)) continue;
    parsed.add(at);
    const byTag = new Map(entries.map((entry) => [entry.tag, entry]));
    for (const entry of entries) {
      if (entry.size > 4) add(entry.valueAt, entry.size, `value ${entry.at}`);
      if (pointerTags.has(entry.tag))
        for (const target of integers(tiff, entry)) queue.push({ at: target, chain: false });
    }
    const thumbnail = byTag.get(TAG_THUMBNAIL_OFFSET);
    const thumbnailLength = byTag.get(TAG_THUMBNAIL_LENGTH);
    if (thumbnail && thumbnailLength)
      add(integers(tiff, thumbnail)[0] ?? length, integers(tiff, thumbnailLength)[0] ?? 0, `thumbnail ${at}`);
    const strips = byTag.get(TAG_STRIP_OFFSETS);
    const stripCounts = byTag.get(TAG_STRIP_BYTE_COUNTS);
    if (strips && stripCounts) {
      const sizes = integers(tiff, stripCounts);
      for (const [i, start] of integers(tiff, strips).entries())
        add(start, sizes[i] ?? 0, `strip ${at} ${i}`);
    }
    const next = tiff.u32(end - 4);
    if (chain && next) queue.push({ at: next, chain: true });
  }
  return { spans, ifd0, beyondEnd };
}

function overlapsOthers(spans: readonly Span[], start: number, end: number, self: string): boolean {
  return spans.some((span) => span.owner !== self && span.start < end && start < span.end);
}

interface Change {
  entry: RawEntry;
  bytes: Buffer;
}

const leftUnchanged = /^EXIF (.+?) left unchanged: /;

/** The warning when mirrored EXIF texts keep the camera's old value (read back by exifTextsLeft). */
export function mirrorSkipped(names: readonly string[], reason: string): string {
  return `EXIF ${names.join(', ')} left unchanged: ${reason}`;
}

/**
 * The EXIF fields a stamping's warnings say were left with the camera's old text (issue 26):
 * the server turns them into one plain line in the job log. Empty when the mirror was written.
 */
export function exifTextsLeft(warnings: readonly string[]): string[] {
  const names = new Set<string>();
  for (const warning of warnings) {
    const match = leftUnchanged.exec(warning);
    for (const name of match?.[1]?.split(/, | and /) ?? []) if (name) names.add(name);
  }
  return textTags.map(([, , name]) => name).filter((name) => names.has(name));
}

/**
 * Rewrites ImageDescription, Artist and Copyright in IFD0 of an APP1 "Exif" payload, as the
 * Metadata Working Group asks (EXIF readers must not see the old text). Only fields the camera
 * wrote are changed; texts are UTF-8, as MWG recommends. Returns the new payload, or undefined
 * when nothing changed (or nothing could be changed safely: then with a warning).
 */
export function updateExifTexts(
  payload: Buffer,
  updates: ExifTextUpdates,
  maxPayload: number,
  warnings: string[],
): Buffer | undefined {
  if (!payload.subarray(0, 6).equals(EXIF_HEADER)) return undefined;
  // An unreadable block (no TIFF header, no IFD0) is said, not skipped silently (issue 26).
  const unreadable = (): undefined => {
    const wanted = textTags.filter(([key]) => updates[key] !== undefined).map(([, , name]) => name);
    if (wanted.length > 0) warnings.push(mirrorSkipped(wanted, 'the EXIF block cannot be read'));
    return undefined;
  };
  let tiff: Tiff;
  try {
    tiff = new Tiff(payload.subarray(6));
  } catch {
    return unreadable();
  }
  const { spans, ifd0, beyondEnd } = ownedSpans(tiff);
  if (!ifd0) return unreadable();
  const readable = tiff.entries(ifd0.at);
  const changes: Change[] = [];
  const names: string[] = [];
  for (const [key, tag, name] of textTags) {
    const text = updates[key];
    const matches = ifd0.entries.filter((raw) => raw.tag === tag);
    const raw = matches[0];
    if (text === undefined || !raw) continue;
    // A text field the camera wrote empty (count 0) is the camera's field too: it gets the text.
    // One of another type (EXIF 3.0's UTF-8, bytes) is left as it is, and said (issue 26).
    if (raw.type !== 2 && raw.type !== 7 && raw.count !== 0) {
      warnings.push(mirrorSkipped([name], `IFD0 stores it as type ${raw.type}, not as text`));
      continue;
    }
    const entry = readable.get(tag);
    if ((entry ? tiff.ascii(entry) : undefined) === (text.trim() || undefined)) continue;
    if (matches.length !== 1) {
      warnings.push(mirrorSkipped([name], 'IFD0 holds it more than once'));
      continue;
    }
    changes.push({ entry: raw, bytes: Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0])]) });
    names.push(name);
  }
  if (changes.length === 0) return undefined;
  if (ifd0.end > tiff.buf.length) {
    warnings.push(mirrorSkipped(names, 'the IFD0 table is cut short'));
    return undefined;
  }
  const tableClean = !overlapsOthers(spans, ifd0.at, ifd0.end, 'ifd 0');
  // Another IFD pointer that leads into IFD0's table (a wrong camera pointer) would read the old
  // table as its own IFD once IFD0 moved: bogus tags (ExifTool -validate warns). Left alone.
  if (
    !tableClean &&
    spans.some(
      (span) =>
        span.owner.startsWith('ifd ') &&
        span.owner !== 'ifd 0' &&
        span.start < ifd0.end &&
        ifd0.at < span.end,
    )
  ) {
    warnings.push(mirrorSkipped(names, 'another IFD pointer leads into the IFD0 table'));
    return undefined;
  }
  const out = tableClean ? patchEntries(tiff, spans, changes) : rebuildIfd0(tiff, ifd0, changes);
  // A value that reaches past the block is unreadable now but would read appended bytes.
  if (beyondEnd && out.length > tiff.buf.length) {
    warnings.push(mirrorSkipped(names, 'an EXIF value points past the end of the block'));
    return undefined;
  }
  if (out.length + 6 > maxPayload) {
    warnings.push(mirrorSkipped(names, 'the new text does not fit into the Exif segment'));
    return undefined;
  }
  return Buffer.concat([EXIF_HEADER, out]);
}

class Writer {
  readonly parts: Buffer[];
  length: number;

  constructor(
    block: Buffer,
    private readonly little: boolean,
  ) {
    this.parts = [block];
    this.length = block.length;
  }

  /** Appends bytes at the next even offset (TIFF offsets are even) and returns that offset. */
  append(bytes: Buffer): number {
    const at = (this.length + 1) & ~1;
    if (at > this.length) this.parts.push(Buffer.alloc(at - this.length));
    this.parts.push(bytes);
    this.length = at + bytes.length;
    return at;
  }

  put16(target: Buffer, value: number, at: number): void {
    if (this.little) target.writeUInt16LE(value, at);
    else target.writeUInt16BE(value, at);
  }

  put32(target: Buffer, value: number, at: number): void {
    if (this.little) target.writeUInt32LE(value, at);
    else target.writeUInt32BE(value, at);
  }

  /** Points a 12-byte entry at `bytes` (inline when they take 4 bytes or fewer), type ASCII. */
  setText(target: Buffer, entryAt: number, bytes: Buffer): void {
    this.put16(target, 2, entryAt + 2);
    this.put32(target, bytes.length, entryAt + 4);
    if (bytes.length <= 4) {
      target.fill(0, entryAt + 8, entryAt + 12);
      bytes.copy(target, entryAt + 8);
    } else {
      this.put32(target, this.append(bytes), entryAt + 8);
    }
  }

  result(): Buffer {
    return Buffer.concat(this.parts, this.length);
  }
}

/** IFD0's table is its own: each text goes in place when its slot is its own and fits, else after the block. */
function patchEntries(tiff: Tiff, spans: readonly Span[], changes: readonly Change[]): Buffer {
  const block = Buffer.from(tiff.buf);
  const writer = new Writer(block, tiff.little);
  for (const { entry, bytes } of changes) {
    const inline = entry.size <= 4;
    const slotEnd = entry.valueAt + entry.size;
    const ownSlot =
      inline ||
      (slotEnd <= block.length && !overlapsOthers(spans, entry.valueAt, slotEnd, `value ${entry.at}`));
    if (ownSlot && bytes.length <= entry.size) {
      block.fill(0, entry.valueAt, slotEnd);
      bytes.copy(block, entry.valueAt);
      if (entry.type !== 2 && entry.type !== 7) writer.put16(block, 2, entry.at + 2);
    } else {
      writer.setText(block, entry.at, bytes);
    }
  }
  return writer.result();
}

/**
 * IFD0's table shares bytes with other data: a copy of it goes after the block and the header
 * points there. Entries whose value lies inside the old table are left out: readers refuse them
 * (ExifTool: "Suspicious offset"), and at the new place they would become readable.
 */
function rebuildIfd0(tiff: Tiff, ifd0: Ifd0, changes: readonly Change[]): Buffer {
  const block = Buffer.from(tiff.buf);
  const writer = new Writer(block, tiff.little);
  const tableEnd = ifd0.at + 2 + ifd0.count * 12;
  const changed = new Set(changes.map((change) => change.entry));
  const kept = ifd0.entries.filter(
    (entry) =>
      changed.has(entry) ||
      entry.size <= 4 ||
      entry.valueAt >= tableEnd ||
      entry.valueAt + entry.size <= ifd0.at,
  );
  const table = Buffer.alloc(2 + kept.length * 12 + 4);
  writer.put16(table, kept.length, 0);
  for (const [i, entry] of kept.entries()) block.copy(table, 2 + i * 12, entry.at, entry.at + 12);
  block.copy(table, 2 + kept.length * 12, ifd0.end - 4, ifd0.end);
  const tableAt = writer.append(table);
  writer.put32(block, tableAt, 4);
  for (const { entry, bytes } of changes) writer.setText(table, 2 + kept.indexOf(entry) * 12, bytes);
  return writer.result();
}
