import { AppError } from '@photorelay/contract/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const emailOf = (request: FastifyRequest) =>
  String((request.body as { email?: unknown } | undefined)?.email ?? '');

/**
 * The auth calls' limits, each per minute. They run after validation, so the e-mail is already
 * normalised (one key for every spelling) and `request.ip` is the proxy's client only when
 * TRUST_PROXY names the proxy. Per account: guesses against one account from any number of
 * addresses. Per address: `addressFactor` times as many, so one attacker behind an office's NAT
 * cannot lock out the colleagues, yet one address cannot spray every account.
 * A browser that logged in to the account before (`knownDevice`, the login device cookie) is
 * counted on its own instead, so wrong passwords from elsewhere cannot lock its owner out.
 */
export function authLimits(
  app: FastifyInstance,
  max: number,
  knownDevice: (request: FastifyRequest, email: string) => string | null = () => null,
) {
  const limiter = (limit: number, key: (request: FastifyRequest) => string) => {
    const check = app.createRateLimit({ max: limit, timeWindow: '1 minute', keyGenerator: key });
    return async (request: FastifyRequest) => {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) throw new AppError('TooManyRequests');
    };
  };
  const both =
    (...checks: Array<(request: FastifyRequest) => Promise<void>>) =>
    async (request: FastifyRequest) => {
      for (const check of checks) await check(request);
    };
  const loginByAccount = both(
    limiter(max, (r) => `login|account|${emailOf(r)}`),
    limiter(max * 10, (r) => `login|address|${r.ip}`),
  );
  const loginByDevice = limiter(max, (r) => `login|device|${knownDevice(r, emailOf(r))}`);
  return {
    login: (request: FastifyRequest) =>
      knownDevice(request, emailOf(request)) ? loginByDevice(request) : loginByAccount(request),
    /** Sign-up and recovery mails: per address, and per target address so nobody gets flooded. */
    mailing: (kind: string) =>
      both(
        limiter(max, (r) => `${kind}|account|${emailOf(r)}`),
        limiter(max, (r) => `${kind}|address|${r.ip}`),
      ),
    byAddress: (kind: string) => limiter(max, (r) => `${kind}|address|${r.ip}`),
  };
}
