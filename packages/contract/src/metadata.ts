// Spec §7 "Image processing and metadata": the property catalog, a project's XMP values and
// modes, the sidecar and test-image commands. Shapes follow spec §3 (XMP property definition,
// XMP value, XMP mode); limits follow §5/§9.
import { z } from 'zod';
import { commandStartErrors, commandStarted } from './commands.ts';
import { decimalParam, fileDownload, idParam, okResult } from './common.ts';
import { limits } from './limits.ts';
import { forMembers, forNode, teamRoute } from './route.ts';
import { processingReport } from './scripts.ts';

export const xmpModes = ['off', 'replace', 'append', 'prepend', 'merge'] as const;
export type XmpMode = (typeof xmpModes)[number];
export const xmpPropertyTypes = ['simple', 'alt', 'bag', 'seq', 'structure'] as const;

// Not in the spec, chosen for a professional product.
export const metadataLimits = {
  /** Highest item position of a Bag/Seq or array of structures. */
  positionMax: 999,
  /** Values one project may hold (a full IPTC template is a few hundred). */
  valuesPerProject: 2000,
  /** Fields in one structure item (POST …/position/{n}). */
  fieldsPerItem: 100,
  /** An .xmp sidecar upload, decoded. */
  sidecarBytes: 1024 * 1024,
  /** Test image for processimage (spec §2 Overview drop area), decoded. */
  testImageBytes: 30 * 1024 * 1024,
  /** How long a processed test image stays downloadable. */
  testResultMinutes: 60,
} as const;
/** Base64 grows 4/3; plus the data URL header, the other fields and JSON. */
export const testImageBodyLimit = Math.ceil((metadataLimits.testImageBytes * 4) / 3) + 64 * 1024;

/** 'id', 'parent,child', deeper 'a,b,c'; an array inside a structure takes its index: 'a,b[1]'. */
export const propertyTypeIdsPattern =
  /^[A-Za-z][A-Za-z0-9_$]{0,63}(\[\d{1,3}\])?(,[A-Za-z][A-Za-z0-9_$]{0,63}(\[\d{1,3}\])?){0,7}$/;
export const propertyTypeIds = z.string().max(300).regex(propertyTypeIdsPattern, 'not a property id path');
export const propertyId = z
  .string()
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_$]{0,63}$/, 'not a property id');
/** A sane BCP 47 language tag (en, de-CH, zh-Hant-TW, x-default). */
export const langPattern =
  /^(x-default|[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|\d{3}))?(-([A-Za-z0-9]{5,8}|\d[A-Za-z0-9]{3}))*(-x(-[A-Za-z0-9]{1,8})+)?|x(-[A-Za-z0-9]{1,8})+)$/;
export const xmpLang = z.string().max(35).regex(langPattern, 'not a language tag');
export const xmpPosition = decimalParam(0, metadataLimits.positionMax);
export const xmpValueText = z.string().max(limits.metadataValue);

const localizedText = z.object({ en: z.string(), de: z.string() });

/** A property or structure field of the catalog; `fields` nest (up to four levels in IPTC 2025.1). */
export const xmpFieldDef = z.object({
  id: z.string(),
  type: z.enum(xmpPropertyTypes),
  arrayOfStructures: z.boolean(),
  xmpName: z.string(),
  title: localizedText,
  desc: localizedText,
  valueFormat: z.string().optional(),
  get fields() {
    return z.array(xmpFieldDef).optional();
  },
});
export type XmpFieldDef = z.infer<typeof xmpFieldDef>;

export const xmpProperty = xmpFieldDef.extend({
  schema: z.enum(['core', 'extension']),
  /** Tab of the metadata page (spec §2): 0 Image Content … 4 More. */
  uiCategory: z
    .number()
    .int()
    .min(0)
    .max(limits.metadataCategories - 1),
  uiOrder: z.number(),
  /** Variable aliases ({caption}). */
  vars: z.array(z.string()),
  /** Modes the property allows (spec §4). */
  modes: z.array(z.enum(xmpModes)),
  /** Byte limit of the IPTC-IIM dataset the value is also written to; null without one. */
  iimMaxBytes: z.number().nullable(),
  iimName: z.string().nullable(),
});
export type XmpProperty = z.infer<typeof xmpProperty>;
export const getXmpPropertiesResponse = z.object({ xmpproperties: z.array(xmpProperty) });

export const xmpValue = z.object({
  propertytypeids: z.string(),
  value: z.string(),
  position: z.number().optional(),
  lang: z.string().optional(),
});
export type XmpValue = z.infer<typeof xmpValue>;
export const xmpModeEntry = z.object({ propertytypeid: z.string(), mode: z.enum(xmpModes) });
export const getXmpValuesResponse = z.object({
  xmpmodes: z.array(xmpModeEntry),
  xmpvalues: z.array(xmpValue),
});

export const putXmpValueBody = z.object({ value: xmpValueText });
export const postXmpLangValueBody = z.object({ value: xmpValueText });
export const postXmpStructureItemBody = z.object({
  /** Fields of the item by id relative to the property ('city', 'regionBoundary,rbX'). */
  properties: z
    .array(z.object({ id: propertyTypeIds, value: xmpValueText }))
    .max(metadataLimits.fieldsPerItem),
});
/** OK, with what the value will not fit (IPTC-IIM byte limits: the IIM copy is cut, XMP keeps all). */
export const xmpWriteResponse = z.object({ result: z.literal('OK'), warnings: z.array(z.string()) });
export const putXmpValueResponse = xmpWriteResponse;
export const postXmpLangValueResponse = xmpWriteResponse;
export const postXmpStructureItemResponse = xmpWriteResponse;

export const xmpValueParams = z.object({
  id: idParam,
  ids: propertyTypeIds,
});
export const xmpValuePositionParams = xmpValueParams.extend({ n: xmpPosition });
export const xmpValueLangParams = xmpValueParams.extend({ lang: xmpLang });
export const xmpModeParams = z.object({
  id: idParam,
  propertyId,
  mode: z.enum(xmpModes),
});

const dbprojectid = z.number().int().positive().max(2_147_483_647);
const fileName = z.string().trim().min(1).max(255);

/** Command storexmpfile: replaces every value and mode of the project (spec §5 warns the user). */
export const storeXmpFileBody = z.object({
  dbprojectid,
  filename: fileName,
  /** A data URL or the XML text itself. */
  content: z.string().max(Math.ceil((metadataLimits.sidecarBytes * 4) / 3) + 1024),
});
export const storeXmpFileDetail = z.object({
  values: z.number(),
  modes: z.number(),
  warnings: z.array(z.string()),
});
export type StoreXmpFileDetail = z.infer<typeof storeXmpFileDetail>;
export const downloadXmpFileBody = z.object({ dbprojectid });
export const downloadXmpFileDetail = z.object({ filename: z.string(), content: z.string() });
export type DownloadXmpFileDetail = z.infer<typeof downloadXmpFileDetail>;

/** Command processimage: the test image as a data URL (spec §7). */
export const processImageBody = z.object({
  dbprojectid,
  filename: fileName,
  content: z.string().max(testImageBodyLimit),
});
/** `a`/`b` name the result for GET command/downloadresultfile/{a}/{b}. */
export const processImageDetail = z.object({
  a: z.number(),
  b: z.string(),
  filename: z.string(),
  size: z.number(),
  warnings: z.array(z.string()),
  unknownVariables: z.array(z.string()),
  /** Names, metadata before and after, skipped destinations and the scripts' log. */
  report: processingReport.optional(),
});
export type ProcessImageDetail = z.infer<typeof processImageDetail>;
export const downloadResultParams = z.object({
  a: idParam,
  b: z.string().max(100),
});
/** processimage errors: position and message joined by this (spec §7). */
export const errorPositionSeparator = '<||||>';

/**
 * Issue 15: hold the pictures that cannot be stamped (default: delivered unstamped). Issue 28:
 * hold the pictures a template variable had no value for (default: sent as they are).
 */
export const metadataSettings = z.object({
  holdUnstampable: z.boolean(),
  holdUnresolvedVariables: z.boolean(),
});
export type MetadataSettings = z.infer<typeof metadataSettings>;
/** PUT: the settings to change (each switch saves its own); at least one. */
export const putMetadataSettingsBody = metadataSettings
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'no setting given' });
export type PutMetadataSettingsBody = z.infer<typeof putMetadataSettingsBody>;

// ---- routes (spec §7 "Image processing and metadata") ----

const projectNode = (needs: 'read' | 'write') => forNode(needs, { kind: 'project', param: 'id' });
const commandProject = (needs: 'read' | 'write') => forNode(needs, { kind: 'project', body: 'dbprojectid' });
const projectParams = z.object({ id: idParam });

export const getXmpProperties = teamRoute({
  method: 'GET',
  path: '/xmpproperties',
  response: getXmpPropertiesResponse,
  access: forMembers,
});

export const getXmpValues = teamRoute({
  method: 'GET',
  path: '/project/:id/xmpvalues',
  params: projectParams,
  response: getXmpValuesResponse,
  access: projectNode('read'),
});

export const deleteXmpValues = teamRoute({
  method: 'DELETE',
  path: '/project/:id/xmpvalues',
  params: projectParams,
  response: okResult,
  access: projectNode('write'),
});

/**
 * Spec §7 addresses a value three ways: the whole value, one item of a list (/position/{n}) or
 * one language of an alt text (/lang/{lang}); the value routes differ in nothing else.
 */
const valueAddresses = {
  value: { path: '/project/:id/xmpvalue/:ids', params: xmpValueParams },
  position: { path: '/project/:id/xmpvalue/:ids/position/:n', params: xmpValuePositionParams },
  lang: { path: '/project/:id/xmpvalue/:ids/lang/:lang', params: xmpValueLangParams },
} as const;
export type ValueAddress = keyof typeof valueAddresses;

const putValueAt = <A extends ValueAddress>(at: A) =>
  teamRoute({
    method: 'PUT',
    path: valueAddresses[at].path,
    params: valueAddresses[at].params,
    body: putXmpValueBody,
    response: putXmpValueResponse,
    access: projectNode('write'),
  });
const deleteValueAt = <A extends ValueAddress>(at: A) =>
  teamRoute({
    method: 'DELETE',
    path: valueAddresses[at].path,
    params: valueAddresses[at].params,
    response: okResult,
    access: projectNode('write'),
  });

/** PUT of one value at each address. */
export const putXmpValue = {
  value: putValueAt('value'),
  position: putValueAt('position'),
  lang: putValueAt('lang'),
};
/** DELETE of the value at each address (with the fields below it). */
export const deleteXmpValue = {
  value: deleteValueAt('value'),
  position: deleteValueAt('position'),
  lang: deleteValueAt('lang'),
};

/** One item of a list of structures, all its fields at once. */
export const postXmpStructureItem = teamRoute({
  method: 'POST',
  path: valueAddresses.position.path,
  params: xmpValuePositionParams,
  body: postXmpStructureItemBody,
  response: postXmpStructureItemResponse,
  access: projectNode('write'),
});

/** One language of an alt text. */
export const postXmpLangValue = teamRoute({
  method: 'POST',
  path: valueAddresses.lang.path,
  params: xmpValueLangParams,
  body: postXmpLangValueBody,
  response: postXmpLangValueResponse,
  access: projectNode('write'),
});

export const getMetadataSettings = teamRoute({
  method: 'GET',
  path: '/project/:id/metadatasettings',
  params: projectParams,
  response: metadataSettings,
  access: projectNode('read'),
});

export const putMetadataSettings = teamRoute({
  method: 'PUT',
  path: '/project/:id/metadatasettings',
  params: projectParams,
  body: putMetadataSettingsBody,
  response: okResult,
  access: projectNode('write'),
});

export const putXmpMode = teamRoute({
  method: 'PUT',
  path: '/project/:id/xmpvaluemode/:propertyId/mode/:mode',
  params: xmpModeParams,
  response: okResult,
  access: projectNode('write'),
});

/** Async commands (spec §7): each answers `{result, commandId, token}`; the detail is polled. */
export const storeXmpFile = teamRoute({
  method: 'POST',
  path: '/command/storexmpfile',
  body: storeXmpFileBody,
  response: commandStarted,
  errors: commandStartErrors,
  access: commandProject('write'),
});

export const downloadXmpFile = teamRoute({
  method: 'POST',
  path: '/command/downloadxmpfile',
  body: downloadXmpFileBody,
  response: commandStarted,
  errors: commandStartErrors,
  access: commandProject('read'),
});

/** The test image travels as a data URL in JSON: the server raises the body limit for this route. */
export const processImage = teamRoute({
  method: 'POST',
  path: '/command/processimage',
  body: processImageBody,
  response: commandStarted,
  errors: [...commandStartErrors, 'PayloadTooLarge'],
  access: commandProject('read'),
});

/** The stamped test image (a JPEG attachment) named by processimage's detail. */
export const downloadResultFile = teamRoute({
  method: 'GET',
  path: '/command/downloadresultfile/:a/:b',
  params: downloadResultParams,
  response: fileDownload,
  access: forMembers,
});

/** Issue 26: a picture held because its metadata could not be written goes out as it is. */
export const releaseHeld = teamRoute({
  method: 'POST',
  path: '/upload/:id/release',
  params: z.object({ id: idParam }),
  response: z.object({ released: z.number() }),
  errors: ['Conflict'],
  access: forMembers,
  summary: 'Sends a held picture (no metadata could be written) to its destinations as it is',
});
