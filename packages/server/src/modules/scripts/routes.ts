import { okResult } from '@photorelay/contract/common';
import * as c from '@photorelay/contract/scripts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { commandResponse, startCommand } from '../../commands/routes.ts';
import type { AppContext } from '../../context.ts';
import { forMembers, forNode } from '../../http/access.ts';
import * as scripts from './service.ts';

/** Spec §7: GET/DELETE team/project/{id}/script and team/folder/{id}/script; command storescriptfile. */
export function scriptRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    for (const kind of ['project', 'folder'] as const) {
      app.get(
        `/${kind}/:id/script`,
        {
          config: forNode('read', { kind, param: 'id' }),
          schema: { params: c.scriptParams, response: { 200: c.getScriptResponse } },
        },
        async (request) => scripts.getScript(ctx, request.member, { kind, id: request.params.id }),
      );
      app.delete(
        `/${kind}/:id/script`,
        {
          config: forNode('write', { kind, param: 'id' }),
          schema: { params: c.scriptParams, response: { 200: okResult } },
        },
        async (request) => {
          await scripts.deleteScript(ctx, request.member, { kind, id: request.params.id });
          return { result: 'OK' as const };
        },
      );
    }
    // The owner is a project or a folder: the service checks the right on whichever it is.
    app.post(
      '/command/storescriptfile',
      { config: forMembers, schema: { body: c.storeScriptFileBody, response: commandResponse } },
      async (request) => startCommand(ctx, request, 'storescriptfile', request.body),
    );
  };
}
