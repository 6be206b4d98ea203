import * as c from '@photorelay/contract/scripts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { startCommand } from '../../commands/routes.ts';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as scripts from './service.ts';

/** Spec §7: GET/DELETE team/project/{id}/script and team/folder/{id}/script; command storescriptfile. */
export function scriptRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    for (const kind of ['project', 'folder'] as const) {
      const routes = c.scriptRoutesOf[kind];
      handle(app, routes.get, async (request) =>
        scripts.getScript(ctx, request.member, { kind, id: request.params.id }),
      );
      handle(app, routes.remove, async (request) => {
        await scripts.deleteScript(ctx, request.member, { kind, id: request.params.id });
        return { result: 'OK' as const };
      });
    }
    handle(app, c.storeScriptFile, async (request) =>
      startCommand(ctx, request, 'storescriptfile', request.body),
    );
  };
}
