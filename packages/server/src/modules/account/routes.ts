import * as c from '@photorelay/contract/account';
import { AppError } from '@photorelay/contract/errors';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { authLimits } from '../../http/auth-limits.ts';
import { knownLoginDevice, setLoginDeviceCookie } from '../../http/login-device.ts';
import { handle } from '../../http/route.ts';
import { clearSessionCookie, requireUser, setSessionCookie } from '../../http/session.ts';
import * as invitations from './invitations.ts';
import * as account from './service.ts';

const ok = { result: 'OK' as const };

/** Public and user-level calls of spec §7 "Account", under /api; declared in the contract. */
export function accountRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const secureCookie = ctx.config.publicUrl.startsWith('https:');

  return async (app) => {
    const limits = authLimits(app, ctx.config.AUTH_RATE_LIMIT, (request, email) =>
      knownLoginDevice(ctx.config.secretKey, request, email),
    );
    handle(
      app,
      c.login,
      async (request, reply) => {
        const session = await account.login(ctx.db, request.body);
        setSessionCookie(reply, session, secureCookie);
        setLoginDeviceCookie(reply, ctx.config.secretKey, request, request.body.email, secureCookie);
        return { logged_in: true };
      },
      { preHandler: limits.login },
    );

    handle(app, c.logout, async (request, reply) => {
      if (request.user) await account.logout(ctx.db, request.user);
      clearSessionCookie(reply);
      return ok;
    });

    handle(app, c.getUserInfo, async (request) => account.userInfo(ctx.db, request.user));

    handle(app, c.putUserInfo, async (request) => {
      await account.updateInfo(ctx.db, requireUser(request), request.body);
      return ok;
    });

    handle(app, c.putUserLanguage, async (request) => {
      await account.setLanguage(ctx.db, requireUser(request), request.body.language);
      return ok;
    });

    handle(app, c.putCurrentTeam, async (request) => {
      await account.setCurrentTeam(ctx.db, requireUser(request), request.body.teamid);
      return ok;
    });

    handle(
      app,
      c.register,
      async (request, reply) => {
        const session = await account.register(ctx, request.body);
        if (session) setSessionCookie(reply, session, secureCookie);
        return ok;
      },
      { preHandler: limits.mailing('register') },
    );

    handle(
      app,
      c.resendVerification,
      async (request) => {
        await account.resendVerification(ctx, request.body);
        return ok;
      },
      { preHandler: limits.mailing('resendVerification') },
    );

    handle(app, c.verify, async (request) => {
      await account.verify(ctx.db, request.body);
      return ok;
    });

    handle(
      app,
      c.requestPasswordReset,
      async (request) => {
        await account.requestPasswordReset(ctx, request.body);
        return ok;
      },
      { preHandler: limits.mailing('reset') },
    );

    handle(
      app,
      c.resetPassword,
      async (request, reply) => {
        const session = await account.resetPassword(ctx.db, request.body);
        setSessionCookie(reply, session, secureCookie);
        return { logged_in: true };
      },
      { preHandler: limits.byAddress('newPassword') },
    );

    handle(
      app,
      c.acceptInvitation,
      async (request) => {
        await invitations.acceptTeamInvitation(ctx.db, request.body);
        return ok;
      },
      { preHandler: limits.byAddress('acceptInvitation') },
    );

    handle(app, c.forceAcceptInvite, async (request) => {
      if (!ctx.config.DEBUG_ADMIN) throw new AppError('NotFound');
      await invitations.forceAcceptInvite(ctx.db, requireUser(request), request.body);
      return ok;
    });
  };
}
