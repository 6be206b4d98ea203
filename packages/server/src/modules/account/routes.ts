import * as c from '@photorelay/contract/account';
import { okResult } from '@photorelay/contract/common';
import { AppError } from '@photorelay/contract/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authLimits } from '../../http/auth-limits.ts';
import { clearSessionCookie, requireUser, setSessionCookie } from '../../http/session.ts';
import * as invitations from './invitations.ts';
import * as account from './service.ts';

const ok = { result: 'OK' as const };

/** Public and user-level calls of spec §7 "Account", under /api. */
export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const secureCookie = ctx.config.publicUrl.startsWith('https:');

  return async (app) => {
    const limits = authLimits(app, ctx.config.AUTH_RATE_LIMIT);
    app.post(
      '/user/login',
      {
        schema: { body: c.postLoginBody, response: { 200: c.postLoginResponse } },
        preHandler: limits.login,
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
      {
        schema: { body: c.postRegisterBody, response: { 200: okResult } },
        preHandler: limits.mailing('register'),
      },
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
      {
        schema: { body: c.postResetPasswordBody, response: { 200: okResult } },
        preHandler: limits.mailing('reset'),
      },
      async (request) => {
        await account.requestPasswordReset(ctx, request.body);
        return ok;
      },
    );

    app.put(
      '/user/resetPassword',
      {
        schema: { body: c.putResetPasswordBody, response: { 200: c.postLoginResponse } },
        preHandler: limits.byAddress('newPassword'),
      },
      async (request, reply) => {
        const session = await account.resetPassword(ctx.db, request.body);
        setSessionCookie(reply, session, secureCookie);
        return { logged_in: true };
      },
    );

    app.post(
      '/user/acceptInvitation',
      {
        schema: { body: c.postAcceptInvitationBody, response: { 200: okResult } },
        preHandler: limits.byAddress('acceptInvitation'),
      },
      async (request) => {
        await invitations.acceptTeamInvitation(ctx.db, request.body);
        return ok;
      },
    );

    app.post(
      '/admin/user/acceptInvite',
      { schema: { body: c.acceptInviteBody, response: { 200: okResult } } },
      async (request) => {
        if (!ctx.config.DEBUG_ADMIN) throw new AppError('NotFound');
        await invitations.forceAcceptInvite(ctx.db, requireUser(request), request.body);
        return ok;
      },
    );
  };
}
