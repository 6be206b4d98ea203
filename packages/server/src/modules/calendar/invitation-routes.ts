import * as c from '@photorelay/contract/calendar';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';
import * as invitations from './invitations.ts';

/** The photographer invitation page's calls, under /api (the mailed link names no team). */
export function calendarInvitationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      c.invitationRoutes.getInvitation.path,
      {
        schema: {
          params: c.invitationParams,
          querystring: c.invitationQuery,
          response: { 200: c.getInvitationResponse },
        },
      },
      (request) =>
        invitations.getInvitation(ctx, requireUser(request).id, request.params.ciid, request.query),
    );

    const confirm = {
      schema: {
        params: c.invitationParams,
        body: c.confirmInvitationBody,
        response: { 200: c.confirmInvitationResponse },
      },
    };
    // Spec §7 spells the call without the slash (/calendar/suggestentries{ciid}/confirm): both are served.
    for (const path of [c.invitationRoutes.confirmInvitation.path, '/calendar/suggestentries:ciid/confirm']) {
      app.post(path, confirm, async (request) => ({
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
