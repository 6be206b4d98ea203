import type { FastifyRequest } from 'fastify';

// Tokens travel in some URLs: the command state poll (every second), the test result download,
// the calendar feed (/api/calendarfeed/{selector}/{token}.ics, fetched hourly by every
// subscriber's calendar app) and the links of mails (/verify?token=…, /signup?token=…). The
// request log shows where a request went, not the secret in it, unless LOG_LEVEL=debug.
const secretSegment = /(\/command\/(?:state|downloadresultfile)\/[^/?]*\/)[^/?]+/;
const feedToken = /(\/calendarfeed\/[^/?]*\/)[^/?]+/;
const secretQuery = /([?&](?:token|selector)=)[^&#]*/gi;

export const redactUrl = (url: string) =>
  url.replace(secretSegment, '$1…').replace(feedToken, '$1…').replace(secretQuery, '$1…');

/** pino serializers for Fastify's request log (they replace Fastify's own `req`). */
export function requestLogSerializers(showSecrets: boolean) {
  return {
    req: (request: FastifyRequest) => ({
      method: request.method,
      url: showSecrets ? request.url : redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    }),
  };
}
