import { decimalParam, idParam, okResult } from '@photorelay/contract/common';
import * as c from '@photorelay/contract/projects';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { forNode } from '../../http/access.ts';
import * as projects from './service.ts';

const id = idParam;
const teamUuid = z.string();
const ok = { result: 'OK' as const };
const projectNode = (needs: 'read' | 'write') => forNode(needs, { kind: 'project', param: 'id' });
const withTarget = z.object({ teamUuid, id, targetId: id });

/** Spec §7 "Projects" (jobs are in the jobs area). */
export function projectRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/project',
      {
        config: forNode('write', { kind: 'folder', body: 'parentFolderId' }),
        schema: { body: c.postProjectBody, response: { 200: c.postProjectResponse } },
      },
      async (request) => ({
        result: 'OK' as const,
        projectId: await projects.createProject(ctx, request.member, request.body),
      }),
    );

    app.get(
      '/project/:id',
      {
        config: projectNode('read'),
        schema: { params: z.object({ teamUuid, id }), response: { 200: c.getProjectResponse } },
      },
      async (request) => ({ project: await projects.getProject(ctx, request.member, request.params.id) }),
    );

    // PUT with the project (or just a name) renames it; everything else has its own call.
    app.put(
      '/project/:id',
      {
        config: projectNode('write'),
        schema: { params: z.object({ teamUuid, id }), body: c.putProjectBody, response: { 200: okResult } },
      },
      async (request) => {
        await projects.renameProject(ctx, request.member, request.params.id, request.body.name);
        return ok;
      },
    );

    app.delete(
      '/project/:id',
      {
        config: projectNode('write'),
        schema: { params: z.object({ teamUuid, id }), response: { 200: okResult } },
      },
      async (request) => {
        await projects.deleteProject(ctx, request.member, request.params.id);
        return ok;
      },
    );

    // Adding and removing a destination is the same call for both kinds.
    const destinations = {
      ftpserver: { add: projects.addFtpServer, remove: projects.removeFtpServer },
      destinationproject: { add: projects.addDestinationProject, remove: projects.removeDestinationProject },
    } as const;
    for (const [kind, use] of Object.entries(destinations)) {
      const options = {
        config: projectNode('write'),
        schema: { params: withTarget, response: { 200: okResult } },
      };
      app.post(`/project/:id/${kind}/:targetId`, options, async (request) => {
        await use.add(ctx, request.member, request.params.id, request.params.targetId);
        return ok;
      });
      app.delete(`/project/:id/${kind}/:targetId`, options, async (request) => {
        await use.remove(ctx, request.member, request.params.id, request.params.targetId);
        return ok;
      });
    }

    app.put(
      '/project/:id/ftpserver/:targetId',
      {
        config: projectNode('write'),
        schema: { params: withTarget, body: c.putProjectFtpServerBody, response: { 200: okResult } },
      },
      async (request) => {
        await projects.updateFtpServerLink(
          ctx,
          request.member,
          request.params.id,
          request.params.targetId,
          request.body,
        );
        return ok;
      },
    );

    app.put(
      '/project/:id/destinationproject/:targetId',
      {
        config: projectNode('write'),
        schema: { params: withTarget, body: c.putDestinationProjectBody, response: { 200: okResult } },
      },
      async (request) => {
        await projects.setDestinationProjectEnabled(
          ctx,
          request.member,
          request.params.id,
          request.params.targetId,
          request.body.enabled,
        );
        return ok;
      },
    );

    app.get(
      '/project/:id/stats',
      {
        config: projectNode('read'),
        schema: {
          params: z.object({ teamUuid, id }),
          querystring: z.object({ days: decimalParam(1, 30).default(3) }),
          response: { 200: c.getProjectStatsResponse },
        },
      },
      async (request) => ({
        hours: await projects.projectStats(ctx, request.member, request.params.id, request.query.days),
      }),
    );

    app.get(
      '/project/:id/connectionlog',
      {
        config: projectNode('read'),
        schema: { params: z.object({ teamUuid, id }), response: { 200: c.getConnectionLogResponse } },
      },
      async (request) => ({ sessions: await projects.connectionLog(ctx, request.member, request.params.id) }),
    );
  };
}
