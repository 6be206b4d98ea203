// Public API of the metadata engine. Browser code (the metadata screen) imports
// '@photorelay/xmp/catalog' and '@photorelay/xmp/validate' directly: this module pulls in Node.
export {
  allowedModes,
  type CatalogProperty,
  catalog,
  type FieldDef,
  getProperty,
  type Mode,
  modeNames,
  type PropertyDef,
  type PropertyType,
} from './catalog.ts';
export { isMetadataError, MetadataError, type MetadataErrorCode } from './errors.ts';
export type { ExifBasics } from './exif.ts';
export { exifTextsLeft } from './exif-write.ts';
export { isJpeg, type MetadataLimits } from './jpeg.ts';
export { type IimEntry, type JpegMetadataResult, readJpegMetadata } from './read-metadata.ts';
export { templateToXmpSidecar, xmpSidecarToTemplate } from './sidecar.ts';
export { type StampOptions, type StampResult, stampJpeg } from './stamp.ts';
export { type FileStampOptions, type FileStampResult, stampJpegFile } from './stamp-file.ts';
export { type HeadStampOptions, type HeadStampResult, stampJpegHead } from './stamp-head.ts';
export type { Template, TemplateValue } from './template.ts';
export { iimLimitWarning, type ValueCheck, type ValueProblemCode, validateValue } from './validate.ts';
export { emptyVariableNote, emptyVariableOf, type VariableOptions } from './variables.ts';
export type { XmpNode, XmpPacket } from './xmp-model.ts';
