import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomToken } from '../crypto/tokens.ts';

/**
 * The login device cookie: set at a successful login, signed with the server's secret and bound
 * to the account's (normalised) e-mail address. A browser that shows it for that account is
 * known: the account's login limit (which anybody can fill with wrong passwords) does not lock
 * it out; it has a limit of its own instead (issue 25). Sent only to the login call.
 */
export const loginDeviceCookie = 'pr_device';
const loginPath = '/api/user/login';
const lifetimeSeconds = 365 * 86_400;

const signature = (key: Buffer, deviceId: string, email: string) =>
  crypto.createHmac('sha256', key).update(`login-device\n${deviceId}\n${email}`).digest('base64url');

/** The device's id when the request's cookie is ours and was set at a login to `email`, else null. */
export function knownLoginDevice(key: Buffer, request: FastifyRequest, email: string): string | null {
  const value = request.cookies[loginDeviceCookie];
  const [deviceId, given, extra] = (value ?? '').split('.');
  if (!deviceId || !given || extra !== undefined) return null;
  const expected = Buffer.from(signature(key, deviceId, email));
  const presented = Buffer.from(given);
  if (presented.length !== expected.length || !crypto.timingSafeEqual(presented, expected)) return null;
  return deviceId;
}

/**
 * After a successful login: this browser is known for `email` from now on. A known one keeps its
 * id (and so its count in the limit), only the cookie's lifetime starts anew.
 */
export function setLoginDeviceCookie(
  reply: FastifyReply,
  key: Buffer,
  request: FastifyRequest,
  email: string,
  secure: boolean,
) {
  const deviceId = knownLoginDevice(key, request, email) ?? randomToken(16);
  reply.setCookie(loginDeviceCookie, `${deviceId}.${signature(key, deviceId, email)}`, {
    path: loginPath,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: lifetimeSeconds,
  });
}
