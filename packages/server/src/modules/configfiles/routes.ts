import { idParam, okResult } from '@photorelay/contract/common';
import * as c from '@photorelay/contract/configfiles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { forMembers, forTeamAdmins } from '../../http/access.ts';
import * as files from './service.ts';

const id = idParam;

/** Spec §7 config files: list, upload/replace, delete, download, read by name. */
export function configFileRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    app.get(
      '/files',
      { config: forTeamAdmins, schema: { response: { 200: c.getFilesResponse } } },
      async (request) => ({
        files: await files.listFiles(db, request.member),
      }),
    );

    app.post(
      '/file',
      { config: forTeamAdmins, schema: { body: c.postFileBody, response: { 200: c.postFileResponse } } },
      async (request) => ({
        result: 'OK' as const,
        ...(await files.saveFile(db, request.member, request.body)),
      }),
    );

    app.delete(
      '/file/:id',
      {
        config: forTeamAdmins,
        schema: { params: z.object({ teamUuid: z.string(), id }), response: { 200: okResult } },
      },
      async (request) => {
        await files.deleteFile(db, request.member, request.params.id);
        return { result: 'OK' as const };
      },
    );

    app.get(
      '/file/:name',
      {
        config: forMembers,
        schema: {
          params: z.object({ teamUuid: z.string(), name: z.string().max(120) }),
          response: { 200: c.getFileResponse },
        },
      },
      async (request) => ({ file: await files.readFileByName(db, request.member, request.params.name) }),
    );

    app.get(
      '/downloadfile/:id',
      { config: forTeamAdmins, schema: { params: z.object({ teamUuid: z.string(), id }) } },
      async (request, reply) => {
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
      },
    );
  };
}
