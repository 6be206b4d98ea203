// Builds the property catalog from the IPTC Photo Metadata TechReference. Inputs:
// iptc-pmd-techreference_2025.1.json (properties, structures, IIM mapping) and
// xmp-container-kinds-observed-in-ref2025.1.json (Bag or Seq, which the reference does not say).
// generate-catalog.ts writes the result to src/catalog-data.json; catalog.test.ts checks it is current.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type {
  CatalogData,
  FieldDef,
  IimMapping,
  PropertyDef,
  PropertyType,
  UiCategory,
  ValueFormat,
} from '../src/catalog-types.ts';
import { englishDescFallback, germanField, germanTop } from './catalog-texts.ts';

interface RefEntry {
  name: string;
  helptext?: string;
  ipmdschema?: string;
  sortorder?: string;
  datatype: string;
  dataformat?: string;
  propoccurrence: 'single' | 'multi';
  XMPid: string;
  etXMP?: string;
  etTag?: string;
  IIMid?: string;
  IIMname?: string;
  IIMmaxbytes?: number;
}

interface TechReference {
  release_comment: string;
  release_timestamp: string;
  ipmd_top: Record<string, RefEntry>;
  ipmd_struct: Record<string, Record<string, RefEntry>>;
}

interface Sources {
  ref: TechReference;
  containers: Record<string, string[]>;
}

const namespaces: Record<string, string> = {
  Iptc4xmpCore: 'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/',
  Iptc4xmpExt: 'http://iptc.org/std/Iptc4xmpExt/2008-02-29/',
  plus: 'http://ns.useplus.org/ldf/xmp/1.0/',
  dc: 'http://purl.org/dc/elements/1.1/',
  photoshop: 'http://ns.adobe.com/photoshop/1.0/',
  xmpRights: 'http://ns.adobe.com/xap/1.0/rights/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  exif: 'http://ns.adobe.com/exif/1.0/',
};

// Screen tabs of the metadata page (spec §2): the order inside a tab puts what a press
// photographer fills in daily first.
const uiLayout: Record<UiCategory, string[]> = {
  0: [
    'headline',
    'description',
    'title',
    'keywords',
    'eventName',
    'eventId',
    'personInImageNames',
    'personsShown',
    'organisationInImageNames',
    'organisationInImageCodes',
    'productsShown',
    'artworkOrObjects',
    'altTextAccessibility',
    'extDescrAccessibility',
    'intellectualGenre',
    'genres',
    'sceneCodes',
    'subjectCodes',
    'aboutCvTerms',
    'imageRating',
    'imageRegion',
  ],
  1: ['sublocationName', 'cityName', 'provinceState', 'countryName', 'countryCode'],
  2: ['locationCreated', 'locationsShown'],
  3: [
    'creatorNames',
    'jobtitle',
    'creditLine',
    'source',
    'copyrightNotice',
    'creatorContactInfo',
    'usageTerms',
    'webstatementRights',
    'copyrightOwners',
    'imageCreators',
    'suppliers',
    'imageSupplierImageId',
    'licensors',
    'contributors',
    'otherConstraints',
    'dataMining',
    'modelReleaseStatus',
    'modelReleaseDocuments',
    'propertyReleaseStatus',
    'propertyReleaseDocuments',
    'minorModelAgeDisclosure',
    'embdEncRightsExprs',
    'linkedEncRightsExprs',
  ],
  4: [
    'dateCreated',
    'captionWriter',
    'instructions',
    'jobid',
    'digitalSourceType',
    'digitalImageGuid',
    'registryEntries',
    'additionalModelInfo',
    'modelAges',
    'maxAvailWidth',
    'maxAvailHeight',
    'aISystemUsed',
    'aISystemVersionUsed',
    'aIPromptInformation',
    'aIPromptWriterNam',
  ],
};

// Variable aliases ({caption}); the names Photo Mechanic users know where one exists.
const aliases: Record<string, string[]> = {
  description: ['caption', 'description'],
  headline: ['headline'],
  title: ['title', 'objectname'],
  cityName: ['city'],
  countryName: ['country'],
  countryCode: ['countrycode'],
  provinceState: ['state', 'province'],
  sublocationName: ['sublocation', 'location'],
  creditLine: ['credit'],
  creatorNames: ['byline', 'creator'],
  jobtitle: ['bylinetitle', 'jobtitle'],
  source: ['source'],
  copyrightNotice: ['copyright'],
  captionWriter: ['captionwriter', 'writer'],
  instructions: ['instructions'],
  jobid: ['jobid', 'transmissionreference'],
  keywords: ['keywords'],
  eventName: ['event'],
  eventId: ['eventid'],
  intellectualGenre: ['intellectualgenre'],
  dateCreated: ['datecreated'],
  usageTerms: ['usageterms', 'rights'],
  personInImageNames: ['persons', 'personshown'],
  organisationInImageNames: ['organisations'],
  webstatementRights: ['webstatement'],
  imageSupplierImageId: ['supplierimageid'],
  altTextAccessibility: ['alttext'],
  extDescrAccessibility: ['extdescription'],
  sceneCodes: ['scene'],
  subjectCodes: ['subjectcode'],
  digitalSourceType: ['digitalsourcetype'],
  aIPromptInformation: ['aiprompt'],
  aIPromptWriterNam: ['aipromptwriter'],
  aISystemUsed: ['aisystem'],
  aISystemVersionUsed: ['aisystemversion'],
  additionalModelInfo: ['modelinfo'],
};

function fail(message: string): never {
  throw new Error(`generate-catalog: ${message}`);
}

function namespaceOf(xmpName: string): string {
  const prefix = xmpName.split(':')[0] ?? '';
  return namespaces[prefix] ?? fail(`unknown XMP prefix in ${xmpName}`);
}

function valueFormatOf(entry: RefEntry): ValueFormat | undefined {
  if (entry.dataformat === 'integer') return 'integer';
  if (entry.dataformat === 'date-time' || entry.dataformat === 'uri' || entry.dataformat === 'url') {
    return entry.dataformat;
  }
  return entry.datatype === 'number' ? 'number' : undefined;
}

/** Bag or Seq as observed in the reference image; the TechReference only says 'multi'. */
function arrayKind(src: Sources, observedPath: string): 'bag' | 'seq' {
  const kinds = src.containers[observedPath];
  return kinds?.[0] === 'Seq' ? 'seq' : 'bag';
}

function typeOf(
  src: Sources,
  entry: RefEntry,
  observedPath: string,
): { type: PropertyType; arrayOfStructures: boolean } {
  const isStruct = entry.datatype === 'struct' && entry.dataformat !== 'AltLang';
  if (entry.propoccurrence === 'multi')
    return { type: arrayKind(src, observedPath), arrayOfStructures: isStruct };
  if (entry.dataformat === 'AltLang') return { type: 'alt', arrayOfStructures: false };
  return { type: isStruct ? 'structure' : 'simple', arrayOfStructures: false };
}

function buildFields(
  src: Sources,
  structName: string,
  parentPath: string,
  parentIsArray: boolean,
): FieldDef[] {
  const struct = src.ref.ipmd_struct[structName] ?? fail(`unknown structure ${structName}`);
  const base = parentIsArray ? `${parentPath}/[]` : parentPath;
  const fields: FieldDef[] = [];
  for (const [id, entry] of Object.entries(struct)) {
    if (entry.datatype === 'any' || !entry.XMPid) continue; // ImageRegion's "any other property"
    const key = `${structName}.${id}`;
    const german = germanField[key] ?? fail(`no German text for ${key}`);
    const observedPath = `${base}/${entry.XMPid}`;
    const { type, arrayOfStructures } = typeOf(src, entry, observedPath);
    const field: FieldDef = {
      id,
      type,
      arrayOfStructures,
      xmpName: entry.XMPid,
      namespace: namespaceOf(entry.XMPid),
      title: { en: entry.name, de: german[0] },
      desc: { en: entry.helptext || englishDescFallback[key] || entry.name, de: german[1] },
      exiftoolTag: entry.etTag || (entry.XMPid.split(':')[1] ?? entry.XMPid),
    };
    const format = valueFormatOf(entry);
    if (format) field.valueFormat = format;
    if (type === 'structure' || arrayOfStructures) {
      field.fields = buildFields(
        src,
        entry.dataformat ?? fail(`${key} has no structure name`),
        observedPath,
        arrayOfStructures,
      );
    }
    fields.push(field);
  }
  return fields;
}

function iimOf(id: string, entry: RefEntry): IimMapping | undefined {
  if (!entry.IIMid) return undefined;
  const [record, dataset] = entry.IIMid.split(':').map(Number);
  if (!record || dataset === undefined || Number.isNaN(dataset)) fail(`bad IIM id ${entry.IIMid}`);
  const mapping: IimMapping = {
    record,
    dataset,
    name: entry.IIMname ?? '',
    repeatable: entry.propoccurrence === 'multi',
    format: id === 'intellectualGenre' ? 'genre' : id === 'subjectCodes' ? 'subject' : 'text',
  };
  if (entry.IIMmaxbytes) mapping.maxBytes = entry.IIMmaxbytes;
  if (entry.IIMname?.includes('+2:60')) {
    mapping.format = 'date';
    mapping.name = 'Date Created';
    mapping.timeDataset = 60;
  }
  return mapping;
}

function uiPlace(id: string): { uiCategory: UiCategory; uiOrder: number } {
  for (const [category, ids] of Object.entries(uiLayout)) {
    const index = ids.indexOf(id);
    if (index >= 0) return { uiCategory: Number(category) as UiCategory, uiOrder: (index + 1) * 10 };
  }
  return fail(`property ${id} has no screen tab`);
}

/** The catalog built from the TechReference files in dataDir (shared/data/iptc). */
export function buildCatalogData(dataDir: string): CatalogData {
  const src: Sources = {
    ref: JSON.parse(
      readFileSync(path.join(dataDir, 'iptc-pmd-techreference_2025.1.json'), 'utf8'),
    ) as TechReference,
    containers: JSON.parse(
      readFileSync(path.join(dataDir, 'xmp-container-kinds-observed-in-ref2025.1.json'), 'utf8'),
    ) as Record<string, string[]>,
  };
  const properties: PropertyDef[] = Object.entries(src.ref.ipmd_top).map(([id, entry]) => {
    const german = germanTop[id] ?? fail(`no German text for ${id}`);
    const { type, arrayOfStructures } = typeOf(src, entry, entry.XMPid);
    const def: PropertyDef = {
      id,
      type,
      arrayOfStructures,
      xmpName: entry.XMPid,
      namespace: namespaceOf(entry.XMPid),
      title: { en: entry.name, de: german[0] },
      desc: { en: entry.helptext || englishDescFallback[id] || entry.name, de: german[1] },
      exiftoolTag: entry.etXMP ?? fail(`${id} has no ExifTool tag`),
      schema: entry.ipmdschema === 'IptcCore' ? 'core' : 'extension',
      ...uiPlace(id),
      vars: aliases[id] ?? [],
    };
    const format = valueFormatOf(entry);
    if (format) def.valueFormat = format;
    if (type === 'structure' || arrayOfStructures) {
      def.fields = buildFields(
        src,
        entry.dataformat ?? fail(`${id} has no structure name`),
        entry.XMPid,
        arrayOfStructures,
      );
    }
    const iim = iimOf(id, entry);
    if (iim) def.iim = iim;
    return def;
  });

  properties.sort((a, b) => a.uiCategory - b.uiCategory || a.uiOrder - b.uiOrder);
  const placed = Object.values(uiLayout).flat();
  if (placed.length !== properties.length)
    fail('screen tabs list a property twice or one that does not exist');

  const seenAliases = new Set<string>();
  for (const def of properties) {
    for (const alias of def.vars) {
      if (seenAliases.has(alias)) fail(`alias ${alias} used twice`);
      seenAliases.add(alias);
    }
  }

  const data: CatalogData = {
    source: { release: src.ref.release_comment.trim(), timestamp: src.ref.release_timestamp },
    namespaces,
    properties,
  };
  return data;
}

/** The exact text of catalog-data.json. */
export function catalogJson(data: CatalogData): string {
  return `${JSON.stringify(data, null, 1)}\n`;
}
