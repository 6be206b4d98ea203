import { z } from 'zod';
import { groupInfo } from '@photorelay/contract/account';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import * as teams from './service.ts';

/** Team-scoped calls; mounted under /api/:teamUuid behind the membership check. */
export function teamRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/user/groups', { schema: { response: { 200: z.object({ groups: z.array(groupInfo) }) } } }, async (request) => ({
      groups: await teams.callerGroups(ctx.db, request.member),
    }));
  };
}
