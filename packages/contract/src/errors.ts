// Stable error codes: every error answer is `{ error: code, message? }`.
export const errorCodes = {
  ValidationError: 400,
  BadOrigin: 403,
  NotLoggedIn: 401,
  InvalidLogin: 401,
  EmailNotVerified: 403,
  MissingPermission: 403,
  NotFound: 404,
  UserAlreadyExists: 409,
  Conflict: 409,
  /** Another project, FTP server or folder of that name (any case) is in the folder. */
  NameTaken: 409,
  InvalidToken: 400,
  TooManyRequests: 429,
  SendMailFailed: 502,
  PayloadTooLarge: 413,
  QuotaExceeded: 413,
  /** A picture too large to decode by its header, or whose decode overran its time or memory (issue 25). */
  PictureRefused: 422,
  InternalError: 500,
  /** PostgreSQL is away (restart, fail-over); health says so and the server reconnects. */
  DatabaseUnavailable: 503,
  /** A part the server needs (the database, the ingest listeners) is not there now: try later. */
  Unavailable: 503,
  /** The server's data disk is full: uploads are refused until there is space (issue 30). */
  DiskFull: 503,
} as const;

export type ErrorCode = keyof typeof errorCodes;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly status: number = errorCodes[code],
  ) {
    super(message ?? code);
  }
}

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && value in errorCodes;
