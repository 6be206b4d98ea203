// Shapes of the property catalog. Kept apart from catalog.ts so the generator script can use
// them without loading the generated data it is about to write.

export type PropertyType = 'simple' | 'alt' | 'bag' | 'seq' | 'structure';

export const modeNames = ['off', 'replace', 'append', 'prepend', 'merge'] as const;
export type Mode = (typeof modeNames)[number];

export type UiCategory = 0 | 1 | 2 | 3 | 4;

export interface LocalizedText {
  en: string;
  de: string;
}

/** How a value is written in IPTC-IIM where it differs from plain text. */
export type IimFormat =
  | 'text'
  /** 2:04 Object Attribute Reference: `000:Genre` in IIM, `Genre` in XMP. */
  | 'genre'
  /** 2:12 Subject Reference: `IPTC:04001000` in IIM, `04001000` in XMP. */
  | 'subject'
  /** 2:55 Date Created (CCYYMMDD) plus 2:60 Time Created (HHMMSS±HHMM). */
  | 'date';

export interface IimMapping {
  record: number;
  dataset: number;
  name: string;
  /** Byte limit of one dataset as the TechReference gives it (absent for the fixed-size date). */
  maxBytes?: number;
  /** The IIM dataset is repeated once per item (keywords, by-line, subject reference). */
  repeatable: boolean;
  format: IimFormat;
  /** Second dataset of a pair (2:60 Time Created for 2:55). */
  timeDataset?: number;
}

/** Value syntax the TechReference prescribes, used to validate input. */
export type ValueFormat = 'number' | 'integer' | 'date-time' | 'uri' | 'url';

export interface FieldDef {
  /** TechReference id, unique among its siblings ('city', 'headline'). */
  id: string;
  type: PropertyType;
  /** true for a Bag/Seq whose items are structures (LocationShown, Licensor, ...). */
  arrayOfStructures: boolean;
  /** prefix:name as in the TechReference (dc:description). */
  xmpName: string;
  namespace: string;
  title: LocalizedText;
  desc: LocalizedText;
  valueFormat?: ValueFormat;
  /** ExifTool's name for the tag (top level: group:name, in structures: field name). */
  exiftoolTag: string;
  /** Fields of a structure or of the items of an array of structures. */
  fields?: FieldDef[];
}

export interface PropertyDef extends FieldDef {
  schema: 'core' | 'extension';
  uiCategory: UiCategory;
  uiOrder: number;
  /** Short aliases usable as variables, e.g. {caption}. */
  vars: string[];
  iim?: IimMapping;
}

export interface CatalogData {
  source: { release: string; timestamp: string };
  /** prefix -> namespace URI for every prefix used in the catalog. */
  namespaces: Record<string, string>;
  properties: PropertyDef[];
}
