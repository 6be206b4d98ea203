// Typed fetch client for the PhotoRelay API (spec §7). Every error answer is a 4xx/5xx with
// `{ error: code, message? }`; any answer carrying an `error` field counts as an error.

/** Anything with a zod-like `parse`; lets callers validate answers with the contract schemas. */
export type Schema<T> = { parse: (data: unknown) => T };

/** The server answered with an `error` field (or a non-JSON failure). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: string,
    readonly status: number,
    readonly serverMessage?: string,
  ) {
    super(serverMessage ? `${code}: ${serverMessage}` : code);
  }
}

/** The request never got an answer (offline, server down, connection reset). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

export const isApiError = (error: unknown, code?: string): error is ApiError =>
  error instanceof ApiError && (code === undefined || error.code === code);

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type RequestOptions<T> = {
  body?: unknown;
  schema?: Schema<T>;
  signal?: AbortSignal;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `path` is relative to `/api/`, e.g. `user/info` or `${team}/jobs/summary`. */
export async function apiRequest<T>(
  method: Method,
  path: string,
  options: RequestOptions<T> = {},
): Promise<T> {
  const hasBody = method !== 'GET';
  let response: Response;
  let text: string;
  try {
    response = await fetch(`/api/${path}`, {
      method,
      credentials: 'same-origin',
      headers: hasBody
        ? { 'Content-Type': 'application/json', Accept: 'application/json' }
        : { Accept: 'application/json' },
      // The server checks the JSON content type on every write, so empty writes send `{}`.
      body: hasBody ? JSON.stringify(options.body ?? {}) : undefined,
      signal: options.signal,
    });
    text = await response.text();
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new NetworkError(error instanceof Error ? error.message : String(error));
  }

  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (isRecord(data) && typeof data.error === 'string' && data.error) {
    throw new ApiError(
      data.error,
      response.status,
      typeof data.message === 'string' ? data.message : undefined,
    );
  }
  if (!response.ok) {
    throw new ApiError(
      response.status >= 500 ? 'InternalError' : 'HttpError',
      response.status,
      response.statusText,
    );
  }
  if (data === null) throw new ApiError('InvalidResponse', response.status);
  if (!options.schema) return data as T;
  try {
    return options.schema.parse(data);
  } catch (error) {
    throw new ApiError(
      'InvalidResponse',
      response.status,
      error instanceof Error ? error.message : undefined,
    );
  }
}

export const apiGet = <T>(path: string, options?: Omit<RequestOptions<T>, 'body'>) =>
  apiRequest<T>('GET', path, options);
export const apiPost = <T>(path: string, body: unknown = {}, options?: Omit<RequestOptions<T>, 'body'>) =>
  apiRequest<T>('POST', path, { ...options, body });
export const apiPut = <T>(path: string, body: unknown = {}, options?: Omit<RequestOptions<T>, 'body'>) =>
  apiRequest<T>('PUT', path, { ...options, body });
export const apiDelete = <T>(path: string, body: unknown = {}, options?: Omit<RequestOptions<T>, 'body'>) =>
  apiRequest<T>('DELETE', path, { ...options, body });

/** Team-scoped path: spec §7 replaces the leading `team/` by the current team uuid. */
export const teamPath = (teamUuid: string, path: string) => `${encodeURIComponent(teamUuid)}/${path}`;

/** Query keys of everything that belongs to one team start with this. */
export const teamScope = (teamUuid: string) => ['team', teamUuid] as const;
export const allTeamsScope = ['team'] as const;
