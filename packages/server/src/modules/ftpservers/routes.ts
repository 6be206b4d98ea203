import { okResult } from '@photorelay/contract/common';
import * as c from '@photorelay/contract/ftpservers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { defineCommand } from '../../commands/registry.ts';
import { commandResponse, startCommand } from '../../commands/routes.ts';
import type { AppContext } from '../../context.ts';
import { forMembers, forNode } from '../../http/access.ts';
import { memberForCommand } from '../teams/service.ts';
import * as servers from './service.ts';

const id = z.coerce.number().int().positive().max(2_147_483_647);
const teamUuid = z.string();
const serverNode = (needs: 'read' | 'write') => forNode(needs, { kind: 'ftpserver', param: 'id' });

defineCommand('testftpserver', async (ctx, run) => {
  const input = c.testFtpServerBody.parse(run.payload);
  return servers.testFtpServer(ctx, await memberForCommand(ctx.db, run), input);
});

/** Spec §7 "FTP servers". */
export function ftpServerRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/ftpservers',
      { config: forMembers, schema: { response: { 200: c.getFtpServersResponse } } },
      async (request) => ({
        ftpservers: await servers.listFtpServers(ctx, request.member),
      }),
    );

    app.get(
      '/ftpserver/:id',
      {
        config: serverNode('read'),
        schema: { params: z.object({ teamUuid, id }), response: { 200: c.getFtpServerResponse } },
      },
      async (request) => ({ ftpserver: await servers.getFtpServer(ctx, request.member, request.params.id) }),
    );

    app.post(
      '/ftpserver',
      {
        config: forNode('write', { kind: 'folder', body: 'parentFolderId' }),
        schema: { body: c.ftpServerBody, response: { 200: c.postFtpServerResponse } },
      },
      async (request) => ({
        result: 'OK' as const,
        ftpserverid: await servers.createFtpServer(ctx, request.member, request.body),
      }),
    );

    // The whole form saves; a body with just a name renames (the tree's inline rename).
    app.put(
      '/ftpserver/:id',
      {
        config: serverNode('write'),
        schema: {
          params: z.object({ teamUuid, id }),
          body: z.union([c.ftpServerBody, z.object({ name: c.ftpServerBody.shape.name })]),
          response: { 200: okResult },
        },
      },
      async (request) => {
        await servers.updateFtpServer(ctx, request.member, request.params.id, request.body);
        return { result: 'OK' as const };
      },
    );

    app.delete(
      '/ftpserver/:id',
      {
        config: serverNode('write'),
        schema: { params: z.object({ teamUuid, id }), response: { 200: okResult } },
      },
      async (request) => {
        await servers.deleteFtpServer(ctx, request.member, request.params.id);
        return { result: 'OK' as const };
      },
    );

    app.post(
      '/command/testftpserver',
      { config: forMembers, schema: { body: c.testFtpServerBody, response: commandResponse } },
      async (request) => {
        await servers.requireStoredPasswordUse(ctx, request.member, request.body);
        return startCommand(ctx, request, 'testftpserver', request.body);
      },
    );
  };
}
