import * as c from '@photorelay/contract/configfiles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as files from './service.ts';

/** Spec §7 config files: list, upload/replace, delete, download, read by name (declared in the contract). */
export function configFileRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    handle(app, c.listConfigFiles, async (request) => ({ files: await files.listFiles(db, request.member) }));

    handle(app, c.saveConfigFile, async (request) => ({
      result: 'OK' as const,
      ...(await files.saveFile(db, request.member, request.body)),
    }));

    handle(app, c.deleteConfigFile, async (request) => {
      await files.deleteFile(db, request.member, request.params.id);
      return { result: 'OK' as const };
    });

    handle(app, c.readConfigFile, async (request) => ({
      file: await files.readFileByName(db, request.member, request.params.name),
    }));

    handle(app, c.downloadConfigFile, async (request, reply) => {
      const file = await files.downloadFile(db, request.member, request.params.id);
      const asciiName = file.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .header('content-type', 'application/octet-stream')
        .header(
          'content-disposition',
          `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        )
        .header('x-content-type-options', 'nosniff')
        .send(file.content);
    });
  };
}
