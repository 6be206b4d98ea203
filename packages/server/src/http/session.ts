import { AppError } from '@photorelay/contract/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/kysely.ts';
import { type SessionUser, sessionUser } from '../modules/account/service.ts';
import { type Member, requireMember } from '../modules/teams/service.ts';

export const sessionCookie = 'pr_session';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    member: Member;
  }
}

/** Loads the session user (or null) for every API request. */
export function registerSession(app: FastifyInstance, db: Db) {
  app.decorateRequest('user', null);
  app.decorateRequest('member', undefined as unknown as Member);
  app.addHook('onRequest', async (request) => {
    const id = request.cookies[sessionCookie];
    request.user = id && request.url.startsWith('/api/') ? await sessionUser(db, id) : null;
  });
}

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('NotLoggedIn');
  return request.user;
}

/** For routes under /api/:teamUuid: the caller must be a member, else the team does not exist. */
export function teamScope(db: Db) {
  return async (request: FastifyRequest) => {
    const user = requireUser(request);
    const { teamUuid } = request.params as { teamUuid?: string };
    request.member = await requireMember(db, teamUuid ?? '', user.id);
  };
}

export function setSessionCookie(
  reply: FastifyReply,
  session: { id: string; maxAgeSeconds?: number },
  secure: boolean,
) {
  reply.setCookie(sessionCookie, session.id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: session.maxAgeSeconds,
  });
}

export const clearSessionCookie = (reply: FastifyReply) => reply.clearCookie(sessionCookie, { path: '/' });
