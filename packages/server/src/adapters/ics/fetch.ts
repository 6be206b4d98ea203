import net from 'node:net';
import { Agent, request } from 'undici';
import { assertAllowedHost, OutboundAddressError } from '../net/outbound-guard.ts';

/**
 * Fetches a calendar feed a user typed in. Every hop (the URL and each redirect target) goes
 * through the outbound guard and the connection is pinned to the address the guard resolved,
 * so a redirect or a second DNS answer cannot reach the server's own network. The body is
 * counted while it streams and dropped past the limit; a feed answering 304 to our ETag /
 * Last-Modified is not read at all.
 */

export type IcsFetchReason =
  | 'badUrl'
  | 'refusedAddress'
  | 'unreachable'
  | 'timeout'
  | 'httpStatus'
  | 'tooManyRedirects'
  | 'tooBig'
  | 'notCalendar';

/** A failure with a text fit for the user (shown under the URL field). */
export class IcsFetchError extends Error {
  constructor(
    readonly reason: IcsFetchReason,
    message: string,
  ) {
    super(message);
  }
}

export interface IcsFetchOptions {
  allowPrivateNetworks: boolean;
  etag?: string | null;
  lastModified?: string | null;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Replaces the outbound guard's check (tests reach a loopback feed but still refuse other hosts). */
  checkHost?: (host: string) => Promise<string>;
}

export type IcsFetchResult =
  | { status: 'notModified'; url: string }
  | { status: 'ok'; url: string; text: string; etag: string | null; lastModified: string | null };

export const icsFetchDefaults = { timeoutMs: 20_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 5 };

/** `webcal://` is https by convention (Apple, Google); only http(s) is fetched. */
export function normalizeCalendarUrl(input: string): URL {
  const text = input.trim().replace(/^webcals?:\/\//i, 'https://');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new IcsFetchError('badUrl', `Not a valid URL: ${input.trim()}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new IcsFetchError(
      'badUrl',
      `Only http, https and webcal addresses are supported, not ${url.protocol}`,
    );
  }
  if (url.username || url.password) url.username = url.password = '';
  return url;
}

function header(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function pinnedAgent(address: string, timeoutMs: number): Agent {
  const family = net.isIPv6(address) ? 6 : 4;
  return new Agent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: {
      timeout: timeoutMs,
      // Connect to the address the guard checked, whatever DNS answers now.
      lookup: (_host, options, callback) => {
        if ((options as { all?: boolean }).all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
    },
  });
}

async function readLimited(body: AsyncIterable<Buffer>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      throw new IcsFetchError(
        'tooBig',
        `The calendar is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function looksLikeCalendar(text: string): boolean {
  return /^\s*BEGIN:VCALENDAR/i.test(text.replace(/^\uFEFF/, ''));
}

function networkError(error: unknown, url: URL): IcsFetchError {
  if (error instanceof IcsFetchError) return error;
  if (error instanceof OutboundAddressError) return new IcsFetchError('refusedAddress', error.message);
  const code = String((error as { code?: unknown }).code ?? '');
  if (
    code.includes('TIMEOUT') ||
    (error as Error).name === 'TimeoutError' ||
    (error as Error).name === 'AbortError'
  ) {
    return new IcsFetchError('timeout', `${url.host} did not answer in time`);
  }
  const detail = code || (error as Error).message;
  return new IcsFetchError('unreachable', `${url.host} cannot be reached (${detail})`);
}

export async function fetchIcs(input: string, options: IcsFetchOptions): Promise<IcsFetchResult> {
  const timeoutMs = options.timeoutMs ?? icsFetchDefaults.timeoutMs;
  const maxBytes = options.maxBytes ?? icsFetchDefaults.maxBytes;
  const maxRedirects = options.maxRedirects ?? icsFetchDefaults.maxRedirects;
  // One deadline for the whole fetch, redirects and body included: a slow server cannot hold a worker.
  const signal = AbortSignal.timeout(timeoutMs);
  let url = normalizeCalendarUrl(input);
  for (let hop = 0; ; hop++) {
    let agent: Agent | undefined;
    try {
      const address = options.checkHost
        ? await options.checkHost(url.hostname)
        : await assertAllowedHost(url.hostname, { allowPrivateNetworks: options.allowPrivateNetworks });
      agent = pinnedAgent(address, timeoutMs);
      const headers: Record<string, string> = {
        accept: 'text/calendar, */*;q=0.5',
        'user-agent': 'PhotoRelay calendar import',
      };
      if (options.etag) headers['if-none-match'] = options.etag;
      if (options.lastModified) headers['if-modified-since'] = options.lastModified;
      const response = await request(url, { method: 'GET', headers, dispatcher: agent, signal });
      const { statusCode } = response;
      if (statusCode === 304) {
        await response.body.dump();
        return { status: 'notModified', url: url.href };
      }
      if (statusCode >= 300 && statusCode < 400 && response.headers.location) {
        await response.body.dump();
        if (hop >= maxRedirects) {
          throw new IcsFetchError('tooManyRedirects', `More than ${maxRedirects} redirects`);
        }
        const next = new URL(String(header(response.headers.location)), url);
        url = normalizeCalendarUrl(next.href);
        continue;
      }
      if (statusCode < 200 || statusCode >= 300) {
        await response.body.dump();
        throw new IcsFetchError('httpStatus', `${url.host} answered HTTP ${statusCode}`);
      }
      const declared = Number(header(response.headers['content-length']) ?? Number.NaN);
      if (declared > maxBytes) {
        response.body.destroy();
        throw new IcsFetchError(
          'tooBig',
          `The calendar is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`,
        );
      }
      const text = (await readLimited(response.body, maxBytes)).toString('utf8');
      if (!looksLikeCalendar(text))
        throw new IcsFetchError('notCalendar', 'The address does not return a calendar');
      return {
        status: 'ok',
        url: url.href,
        text,
        etag: header(response.headers.etag),
        lastModified: header(response.headers['last-modified']),
      };
    } catch (error) {
      throw networkError(error, url);
    } finally {
      void agent?.destroy().catch(() => undefined);
    }
  }
}
