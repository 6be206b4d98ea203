import * as c from '@photorelay/contract/calendar';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { requireUser } from '../../http/session.ts';
import * as invitations from './invitations.ts';

/** The photographer invitation page's calls, under /api (the mailed link names no team). */
export function calendarInvitationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const { getInvitation, confirmInvitation } = c.invitationRoutes;
    handle(app, getInvitation, (request) =>
      invitations.getInvitation(ctx, requireUser(request).id, request.params.ciid, request.query),
    );

    // Spec §7 spells the call without the slash (/calendar/suggestentries{ciid}/confirm): both are served.
    for (const path of [confirmInvitation.path, '/calendar/suggestentries:ciid/confirm']) {
      handle(app, { ...confirmInvitation, path }, async (request) => ({
        result: 'OK' as const,
        answer: await invitations.confirmInvitation(
          ctx,
          requireUser(request).id,
          request.params.ciid,
          request.body,
        ),
      }));
    }
  };
}
