import * as c from '@photorelay/contract/ftpservers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { startCommand } from '../../commands/routes.ts';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as servers from './service.ts';

/** Spec §7 "FTP servers"; the routes are declared in the contract. */
export function ftpServerRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, c.listFtpServers, async (request) => ({
      ftpservers: await servers.listFtpServers(ctx, request.member),
    }));

    handle(app, c.listFtpServerHealth, async (request) => ({
      health: await servers.listFtpServerHealth(ctx, request.member),
    }));

    handle(app, c.getFtpServer, async (request) => ({
      ftpserver: await servers.getFtpServer(ctx, request.member, request.params.id),
    }));

    handle(app, c.createFtpServer, async (request) => ({
      result: 'OK' as const,
      ftpserverid: await servers.createFtpServer(ctx, request.member, request.body),
    }));

    handle(app, c.updateFtpServer, async (request) => {
      await servers.updateFtpServer(ctx, request.member, request.params.id, request.body);
      return { result: 'OK' as const };
    });

    handle(app, c.deleteFtpServer, async (request) => {
      await servers.deleteFtpServer(ctx, request.member, request.params.id);
      return { result: 'OK' as const };
    });

    handle(app, c.testFtpServer, async (request) => {
      await servers.requireStoredPasswordUse(ctx, request.member, request.body);
      return startCommand(ctx, request, 'testftpserver', request.body);
    });
  };
}
