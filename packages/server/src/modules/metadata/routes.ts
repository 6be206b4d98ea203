import * as c from '@photorelay/contract/metadata';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { startCommand } from '../../commands/routes.ts';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as metadata from './service.ts';
import * as testImage from './test-image.ts';

const ok = { result: 'OK' as const };
const written = (warnings: string[]) => ({ result: 'OK' as const, warnings });
type ValueParams = z.output<(typeof c.putXmpValue)[c.ValueAddress]['params']>;

/** The value an address names, as the service takes it (each URL carries only its own parameters). */
function addressedValue(params: ValueParams) {
  if ('n' in params) return { propertytypeids: params.ids, position: params.n };
  if ('lang' in params) return { propertytypeids: params.ids, lang: params.lang };
  return { propertytypeids: params.ids };
}

/** Spec §7 "Image processing and metadata"; the routes are declared in the contract. */
export function metadataRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, c.getXmpProperties, async () => ({ xmpproperties: metadata.listProperties() }));

    handle(app, c.getXmpValues, async (request) =>
      metadata.getValues(ctx, request.member, request.params.id),
    );

    handle(app, c.deleteXmpValues, async (request) => {
      await metadata.clearAll(ctx, request.member, request.params.id);
      return ok;
    });

    for (const route of Object.values(c.putXmpValue)) {
      handle(app, route, async (request) =>
        written(
          await metadata.putValue(ctx, request.member, request.params.id, {
            ...addressedValue(request.params),
            value: request.body.value,
          }),
        ),
      );
    }

    handle(app, c.postXmpStructureItem, async (request) =>
      written(
        await metadata.putStructureItem(ctx, request.member, request.params.id, {
          propertyId: request.params.ids,
          position: request.params.n,
          properties: request.body.properties,
        }),
      ),
    );

    handle(app, c.postXmpLangValue, async (request) =>
      written(
        await metadata.putValue(ctx, request.member, request.params.id, {
          ...addressedValue(request.params),
          value: request.body.value,
        }),
      ),
    );

    for (const route of Object.values(c.deleteXmpValue)) {
      handle(app, route, async (request) => {
        await metadata.deleteValue(ctx, request.member, request.params.id, addressedValue(request.params));
        return ok;
      });
    }

    handle(app, c.getMetadataSettings, async (request) =>
      metadata.getSettings(ctx, request.member, request.params.id),
    );

    handle(app, c.putMetadataSettings, async (request) => {
      await metadata.setSettings(ctx, request.member, request.params.id, request.body);
      return ok;
    });

    handle(app, c.releaseHeld, async (request) => ({
      released: await metadata.releaseHeldPicture(ctx, request.member, request.params.id),
    }));

    handle(app, c.putXmpMode, async (request) => {
      await metadata.setMode(
        ctx,
        request.member,
        request.params.id,
        request.params.propertyId,
        request.params.mode,
      );
      return ok;
    });

    handle(app, c.storeXmpFile, async (request) => startCommand(ctx, request, 'storexmpfile', request.body));

    handle(app, c.downloadXmpFile, async (request) =>
      startCommand(ctx, request, 'downloadxmpfile', request.body),
    );

    // The test image travels as a data URL in JSON: the body limit is raised for this route only.
    handle(
      app,
      c.processImage,
      async (request) =>
        startCommand(
          ctx,
          request,
          'processimage',
          await testImage.acceptTestImage(ctx, request.member, request.body),
        ),
      { bodyLimit: c.testImageBodyLimit + 1024 },
    );

    handle(app, c.downloadResultFile, async (request, reply) => {
      const result = await testImage.openTestResult(ctx, request.member, request.params.a, request.params.b);
      const asciiName = result.filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
      return reply
        .header('content-type', 'image/jpeg')
        .header('content-length', String(result.size))
        .header(
          'content-disposition',
          `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(result.filename)}`,
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(result.stream);
    });
  };
}
