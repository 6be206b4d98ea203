import * as c from '@photorelay/contract/projects';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as projects from './service.ts';

const ok = { result: 'OK' as const };

/** Spec §7 "Projects" (jobs are in the jobs area); the routes are declared in the contract. */
export function projectRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, c.createProject, async (request) => ({
      result: 'OK' as const,
      projectId: await projects.createProject(ctx, request.member, request.body),
    }));

    handle(app, c.getProject, async (request) => ({
      project: await projects.getProject(ctx, request.member, request.params.id),
    }));

    handle(app, c.renameProject, async (request) => {
      await projects.renameProject(ctx, request.member, request.params.id, request.body.name);
      return ok;
    });

    handle(app, c.deleteProject, async (request) => {
      await projects.deleteProject(ctx, request.member, request.params.id);
      return ok;
    });

    // Adding and removing a destination is the same call for both kinds.
    const destinations = {
      ftpserver: { add: projects.addFtpServer, remove: projects.removeFtpServer },
      destinationproject: { add: projects.addDestinationProject, remove: projects.removeDestinationProject },
    } as const;
    for (const kind of Object.keys(destinations) as c.DestinationKind[]) {
      const use = destinations[kind];
      handle(app, c.destinationRoutes[kind].add, async (request) => {
        await use.add(ctx, request.member, request.params.id, request.params.targetId);
        return ok;
      });
      handle(app, c.destinationRoutes[kind].remove, async (request) => {
        await use.remove(ctx, request.member, request.params.id, request.params.targetId);
        return ok;
      });
    }

    handle(app, c.destinationRoutes.ftpserver.update, async (request) => {
      await projects.updateFtpServerLink(
        ctx,
        request.member,
        request.params.id,
        request.params.targetId,
        request.body,
      );
      return ok;
    });

    handle(app, c.destinationRoutes.destinationproject.update, async (request) => {
      await projects.setDestinationProjectEnabled(
        ctx,
        request.member,
        request.params.id,
        request.params.targetId,
        request.body.enabled,
      );
      return ok;
    });

    handle(app, c.getProjectStats, (request) =>
      projects.projectStats(ctx, request.member, request.params.id, request.query.days),
    );

    handle(app, c.getConnectionLog, async (request) => ({
      sessions: await projects.connectionLog(ctx, request.member, request.params.id),
    }));
  };
}
