// One error type for everything the metadata engine refuses, with a stable code so callers
// (the job worker, the upload handlers) can tell bad input from bugs without parsing messages.
export const metadataErrorCodes = [
  'NOT_JPEG',
  'TRUNCATED',
  'BAD_SEGMENT',
  'METADATA_TOO_LARGE',
  'INVALID_UTF8',
  'XML_DOCTYPE',
  'INVALID_XML',
  'INVALID_XMP',
  'INVALID_IIM',
  'INVALID_TEMPLATE',
  'VALUE_TOO_LONG',
  'TIME_LIMIT',
] as const;

export type MetadataErrorCode = (typeof metadataErrorCodes)[number];

export class MetadataError extends Error {
  override readonly name = 'MetadataError';

  constructor(
    readonly code: MetadataErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const isMetadataError = (value: unknown): value is MetadataError => value instanceof MetadataError;
