import { AppError } from '@photorelay/contract/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/kysely.ts';
import { findSession, type SessionUser } from '../modules/account/service.ts';
import { asTeamUuid, type Member, requireMember } from '../modules/teams/service.ts';

export const sessionCookie = 'pr_session';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    member: Member;
    /** The user's membership in the team the URL names (/api/{teamUuid}/…), read with the session. */
    sessionMembership: { teamUuid: string; member: Member | null } | undefined;
  }
}

/** `/api/{teamUuid}/…`: the URL's team, lower-cased, when the first segment can be one. */
const urlTeam = (url: string) => asTeamUuid(/^\/api\/([^/?#]+)\//.exec(url)?.[1]);

/** Loads the session user (or null) for every API request, with their membership in the URL's team. */
export function registerSession(app: FastifyInstance, db: Db) {
  app.decorateRequest('user', null);
  app.decorateRequest('member', undefined as unknown as Member);
  app.decorateRequest('sessionMembership', undefined);
  app.addHook('onRequest', async (request) => {
    const id = request.cookies[sessionCookie];
    const teamUuid = urlTeam(request.url);
    const session = id && request.url.startsWith('/api/') ? await findSession(db, id, teamUuid) : null;
    request.user = session?.user ?? null;
    request.sessionMembership = session && teamUuid ? { teamUuid, member: session.member } : undefined;
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
    const read = request.sessionMembership;
    if (read && read.teamUuid === asTeamUuid(teamUuid)) {
      if (!read.member) throw new AppError('NotFound');
      request.member = read.member;
    } else request.member = await requireMember(db, teamUuid ?? '', user.id);
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
