import * as c from '@photorelay/contract/jobs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { recentUploads } from './service.ts';
import { uploadCaption, uploadPicture } from './thumbnails.ts';

/** Issue 16: an upload's thumbnail and preview, the caption and credit it was sent with, today's pictures. */
export function uploadPictureRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, c.getUploadPicture, async (request, reply) => {
      const picture = await uploadPicture(ctx, request.member, request.params.id, request.query.size);
      if (!picture) return reply.code(204).send();
      return reply
        .header('content-type', 'image/jpeg')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=86400')
        .send(picture);
    });

    handle(app, c.getUploadCaption, async (request) => uploadCaption(ctx, request.member, request.params.id));

    handle(app, c.getRecentUploads, async (request) => ({
      uploads: await recentUploads(
        ctx.db,
        request.member,
        new Date(request.query.since),
        request.query.limit,
      ),
    }));
  };
}
