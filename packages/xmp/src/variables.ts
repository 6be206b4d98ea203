// Variables in template values, resolved per picture: {filename}, {date}, {time}, {camera},
// {serial}, {lens}, {iso}, {photographer}, and any property alias ({city}) meaning that
// property's final value. "\{" writes a brace. Code replacements as in Photo Mechanic:
// "=gb12=" becomes the text the code map gives ("=gb12#2=" its second column).
import { type CatalogProperty, propertyForVariable } from './catalog.ts';
import { type DateParts, formatDateTokens, formatXmpDate, parseExifDateTime, parseXmpDate } from './dates.ts';
import type { ExifBasics } from './exif.ts';
import { altDefault, arrayTexts, getProperty, type XmpNode, type XmpPacket } from './xmp-model.ts';

export interface VariableOptions {
  /** Name of the picture's file, for {filename} and {filenamebase}. */
  filename?: string;
  /** Tokens YYYY YY MM M DD D HH H mm m ss s. Default 'DD.MM.YYYY' (spec §9). */
  dateFormat?: string;
  /** Default 'HH:mm' (spec §9). */
  timeFormat?: string;
  /** Camera body serial number -> photographer name, for {photographer}. */
  photographers?: Record<string, string>;
  /** Code replacements: code -> text, or code -> columns (=code#2= picks the second). */
  codes?: Record<string, string | readonly string[]>;
  /** Character around codes. Default '='. */
  codeDelimiter?: string;
}

/** What the picture itself says, from EXIF with XMP as fallback. */
export interface PictureFacts {
  captureDate?: DateParts;
  make?: string;
  model?: string;
  serial?: string;
  lens?: string;
  iso?: number;
}

const NS = {
  exif: 'http://ns.adobe.com/exif/1.0/',
  exifEX: 'http://cipa.jp/exif/1.0/',
  aux: 'http://ns.adobe.com/exif/1.0/aux/',
  tiff: 'http://ns.adobe.com/tiff/1.0/',
  photoshop: 'http://ns.adobe.com/photoshop/1.0/',
};

function xmpText(packet: XmpPacket | undefined, ns: string, name: string): string | undefined {
  const node = packet ? getProperty(packet, ns, name) : undefined;
  const text = node?.kind === 'array' ? arrayTexts(node)[0] : altDefault(node);
  return text?.trim() || undefined;
}

/** Facts for the variables; `packet` is the picture's XMP as found (before the template). */
export function pictureFacts(exif: ExifBasics, packet: XmpPacket | undefined): PictureFacts {
  const facts: PictureFacts = {};
  const fromExif = exif.dateTimeOriginal
    ? parseExifDateTime(exif.dateTimeOriginal, exif.offsetTimeOriginal, exif.subSecTimeOriginal)
    : undefined;
  const xmpDate =
    xmpText(packet, NS.exif, 'DateTimeOriginal') ?? xmpText(packet, NS.photoshop, 'DateCreated');
  const captureDate = fromExif ?? (xmpDate ? parseXmpDate(xmpDate) : undefined);
  if (captureDate) facts.captureDate = captureDate;
  const make = exif.make ?? xmpText(packet, NS.tiff, 'Make');
  const model = exif.model ?? xmpText(packet, NS.tiff, 'Model');
  const serial =
    exif.bodySerialNumber ??
    xmpText(packet, NS.exifEX, 'BodySerialNumber') ??
    xmpText(packet, NS.aux, 'SerialNumber');
  const lens = exif.lensModel ?? xmpText(packet, NS.exifEX, 'LensModel') ?? xmpText(packet, NS.aux, 'Lens');
  const isoText =
    xmpText(packet, NS.exifEX, 'PhotographicSensitivity') ?? xmpText(packet, NS.exif, 'ISOSpeedRatings');
  const iso = exif.iso ?? (isoText && /^\d+$/.test(isoText) ? Number(isoText) : undefined);
  if (make) facts.make = make;
  if (model) facts.model = model;
  if (serial) facts.serial = serial;
  if (lens) facts.lens = lens;
  if (iso !== undefined) facts.iso = iso;
  return facts;
}

/** Text a property contributes as a variable: the value, x-default, or items joined by ", ". */
export function nodeText(def: CatalogProperty, node: XmpNode | undefined): string | undefined {
  if (!node) return undefined;
  if (def.type === 'bag' || def.type === 'seq')
    return def.arrayOfStructures ? undefined : arrayTexts(node).join(', ');
  if (def.type === 'structure') return undefined;
  return altDefault(node);
}

function cameraName(make: string | undefined, model: string | undefined): string | undefined {
  if (!model) return make;
  if (!make || model.toLowerCase().startsWith(make.split(' ')[0]?.toLowerCase() ?? '')) return model;
  return `${make} ${model}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The warning for a variable the picture had no value for (issue 28: "Photo:  / Agency" went out
 * silently). {photographer} names the camera serial photographers.json lacks ('' = the picture
 * names none). The server finds these among a stamp's warnings with emptyVariableOf.
 */
export function emptyVariableNote(name: string, serial?: string): string {
  if (serial === undefined) return `{${name}} had no value for this picture`;
  return serial === ''
    ? `{${name}} had no value: the picture names no camera serial`
    : `{${name}} had no value for camera serial ${serial}`;
}

const emptyNotePattern =
  /^\{([A-Za-z][A-Za-z0-9_]*)\} had no value(?: for camera serial (.+)|(: the picture names no camera serial))?/;

/** The variable (and camera serial) an emptyVariableNote names, or undefined for other warnings. */
export function emptyVariableOf(warning: string): { name: string; serial?: string } | undefined {
  const match = emptyNotePattern.exec(warning);
  if (!match?.[1]) return undefined;
  if (match[2] !== undefined) return { name: match[1], serial: match[2] };
  return match[3] ? { name: match[1], serial: '' } : { name: match[1] };
}

const variablePattern = /\\\{|\{([A-Za-z][A-Za-z0-9_]*)(?::([^{}]*))?\}/g;

export class VariableResolver {
  readonly unknownVariables = new Set<string>();
  readonly warnings: string[] = [];
  private readonly codePattern: RegExp;
  private readonly lowerCodes: Map<string, string | readonly string[]>;

  constructor(
    private readonly options: VariableOptions,
    private readonly facts: PictureFacts,
    /** Final text of a property, for alias variables; may itself resolve variables. */
    private readonly propertyText: (def: CatalogProperty) => string | undefined,
  ) {
    const delimiter = escapeRegExp(options.codeDelimiter || '=');
    this.codePattern = new RegExp(`${delimiter}([A-Za-z0-9_.-]{1,64})(?:#(\\d{1,3}))?${delimiter}`, 'g');
    this.lowerCodes = new Map(
      Object.entries(options.codes ?? {}).map(([code, text]) => [code.toLowerCase(), text]),
    );
  }

  /** Expands =code= replacements; unknown codes stay as written, with a warning. */
  expandCodes(text: string): string {
    if (this.lowerCodes.size === 0) return text;
    return text.replace(this.codePattern, (whole, code: string, column: string | undefined) => {
      const entry = this.options.codes?.[code] ?? this.lowerCodes.get(code.toLowerCase());
      if (entry === undefined) {
        this.warnings.push(`unknown code replacement ${whole}`);
        return whole;
      }
      const columns = typeof entry === 'string' ? [entry] : entry;
      const picked = columns[(column ? Number(column) : 1) - 1];
      if (picked === undefined) {
        this.warnings.push(`code replacement ${whole} has no column ${column}`);
        return whole;
      }
      return picked;
    });
  }

  /** Codes, then variables. */
  resolve(text: string): string {
    const expanded = this.expandCodes(text);
    if (!expanded.includes('{')) return expanded;
    return expanded.replace(
      variablePattern,
      (whole, name: string | undefined, format: string | undefined) => {
        if (name === undefined) return '{'; // escaped brace
        const value = this.variable(name.toLowerCase(), format);
        if (value === undefined) {
          this.unknownVariables.add(name);
          return whole;
        }
        return value;
      },
    );
  }

  private missing(name: string, serial?: string): string {
    const note = emptyVariableNote(name, serial);
    if (!this.warnings.includes(note)) this.warnings.push(note);
    return '';
  }

  private variable(name: string, format: string | undefined): string | undefined {
    const { facts, options } = this;
    switch (name) {
      case 'filename':
        return options.filename ?? this.missing(name);
      case 'filenamebase':
        return options.filename?.replace(/\.[^./\\]*$/, '') ?? this.missing(name);
      case 'date':
        return facts.captureDate
          ? formatDateTokens(facts.captureDate, format || options.dateFormat || 'DD.MM.YYYY')
          : this.missing(name);
      case 'time':
        return facts.captureDate
          ? formatDateTokens(facts.captureDate, format || options.timeFormat || 'HH:mm')
          : this.missing(name);
      case 'datetime':
        return facts.captureDate ? formatXmpDate(facts.captureDate) : this.missing(name);
      case 'camera':
        return cameraName(facts.make, facts.model) ?? this.missing(name);
      case 'make':
        return facts.make ?? this.missing(name);
      case 'model':
        return facts.model ?? this.missing(name);
      case 'serial':
        return facts.serial ?? this.missing(name);
      case 'lens':
        return facts.lens ?? this.missing(name);
      case 'iso':
        return facts.iso === undefined ? this.missing(name) : String(facts.iso);
      case 'photographer': {
        const photographer = facts.serial ? options.photographers?.[facts.serial] : undefined;
        return photographer ?? this.missing(name, facts.serial ?? '');
      }
      default: {
        const def = propertyForVariable(name);
        if (!def || def.type === 'structure' || def.arrayOfStructures) return undefined;
        return this.propertyText(def) ?? '';
      }
    }
  }
}
