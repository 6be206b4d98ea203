import * as c from '@photorelay/contract/account';
import { okResult } from '@photorelay/contract/common';
import { AppError } from '@photorelay/contract/errors';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { clearSessionCookie, requireUser, setSessionCookie } from '../../http/session.ts';
import * as account from './service.ts';

const ok = { result: 'OK' as const };

/** Public and user-level calls of spec §7 "Account", under /api. */
export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const secureCookie = ctx.config.publicUrl.startsWith('https:');
  const limited = (keyOf: (request: FastifyRequest) => string) => ({
    rateLimit: {
      max: ctx.config.AUTH_RATE_LIMIT,
      timeWindow: '1 minute',
      keyGenerator: keyOf,
      hook: 'preHandler' as const,
    },
  });
  const byIp = (request: FastifyRequest) => request.ip;
  // Login is limited per address and account, so one attacker cannot lock out a whole office.
  const byIpAndEmail = (request: FastifyRequest) =>
    `${request.ip}|${String((request.body as { email?: unknown } | undefined)?.email ?? '').toLowerCase()}`;

  return async (app) => {
    app.post(
      '/user/login',
      {
        schema: { body: c.postLoginBody, response: { 200: c.postLoginResponse } },
        config: limited(byIpAndEmail),
      },
      async (request, reply) => {
        const session = await account.login(ctx.db, request.body);
        setSessionCookie(reply, session, secureCookie);
        return { logged_in: true };
      },
    );

    app.post('/user/logout', { schema: { response: { 200: okResult } } }, async (request, reply) => {
      if (request.user) await account.logout(ctx.db, request.user);
      clearSessionCookie(reply);
      return ok;
    });

    app.get('/user/info', { schema: { response: { 200: c.getUserInfoResponse } } }, async (request) =>
      account.userInfo(ctx.db, request.user),
    );

    app.put(
      '/user/info',
      { schema: { body: c.putUserInfoBody, response: { 200: okResult } } },
      async (request) => {
        await account.updateInfo(ctx.db, requireUser(request), request.body);
        return ok;
      },
    );

    app.put(
      '/user/currentteam',
      { schema: { body: c.putCurrentTeamBody, response: { 200: okResult } } },
      async (request) => {
        await account.setCurrentTeam(ctx.db, requireUser(request), request.body.teamid);
        return ok;
      },
    );

    app.post(
      '/user/register',
      { schema: { body: c.postRegisterBody, response: { 200: okResult } }, config: limited(byIp) },
      async (request) => {
        await account.register(ctx, request.body);
        return ok;
      },
    );

    app.post(
      '/user/verify',
      { schema: { body: c.postVerifyBody, response: { 200: okResult } } },
      async (request) => {
        await account.verify(ctx.db, request.body);
        return ok;
      },
    );

    app.post(
      '/user/resetPassword',
      { schema: { body: c.postResetPasswordBody, response: { 200: okResult } }, config: limited(byIp) },
      async (request) => {
        await account.requestPasswordReset(ctx, request.body);
        return ok;
      },
    );

    app.put(
      '/user/resetPassword',
      {
        schema: { body: c.putResetPasswordBody, response: { 200: c.postLoginResponse } },
        config: limited(byIp),
      },
      async (request, reply) => {
        const session = await account.resetPassword(ctx.db, request.body);
        setSessionCookie(reply, session, secureCookie);
        return { logged_in: true };
      },
    );

    app.post(
      '/admin/user/acceptInvite',
      { schema: { body: c.acceptInviteBody, response: { 200: okResult } } },
      async (request) => {
        if (!ctx.config.DEBUG_ADMIN) throw new AppError('NotFound');
        await account.acceptInvite(ctx.db, request.body);
        return ok;
      },
    );
  };
}
