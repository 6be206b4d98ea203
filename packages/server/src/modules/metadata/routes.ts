import { idParam, okResult } from '@photorelay/contract/common';
import * as c from '@photorelay/contract/metadata';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commandResponse, startCommand } from '../../commands/routes.ts';
import type { AppContext } from '../../context.ts';
import { forMembers, forNode } from '../../http/access.ts';
import * as metadata from './service.ts';
import * as testImage from './test-image.ts';

const projectNode = (needs: 'read' | 'write') => forNode(needs, { kind: 'project', param: 'id' });
const commandProject = (needs: 'read' | 'write') => forNode(needs, { kind: 'project', body: 'dbprojectid' });
const projectParams = z.object({
  teamUuid: z.string(),
  id: idParam,
});
const ok = { result: 'OK' as const };
const written = (warnings: string[]) => ({ result: 'OK' as const, warnings });

/**
 * Spec §7 addresses a value three ways: the whole value, one item of a list (/position/{n}) or
 * one language of an alt text (/lang/{lang}); the value routes differ in nothing else.
 */
const valueAddresses = {
  value: { url: '/project/:id/xmpvalue/:ids', params: c.xmpValueParams },
  position: { url: '/project/:id/xmpvalue/:ids/position/:n', params: c.xmpValuePositionParams },
  lang: { url: '/project/:id/xmpvalue/:ids/lang/:lang', params: c.xmpValueLangParams },
};
type ValueAddress = (typeof valueAddresses)[keyof typeof valueAddresses];

/** The value an address names, as the service takes it (each URL carries only its own parameters). */
function addressedValue(params: z.output<ValueAddress['params']>) {
  if ('n' in params) return { propertytypeids: params.ids, position: params.n };
  if ('lang' in params) return { propertytypeids: params.ids, lang: params.lang };
  return { propertytypeids: params.ids };
}

/** Spec §7 "Image processing and metadata". */
export function metadataRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/xmpproperties',
      { config: forMembers, schema: { response: { 200: c.getXmpPropertiesResponse } } },
      async () => ({
        xmpproperties: metadata.listProperties(),
      }),
    );

    app.get(
      '/project/:id/xmpvalues',
      {
        config: projectNode('read'),
        schema: { params: projectParams, response: { 200: c.getXmpValuesResponse } },
      },
      async (request) => metadata.getValues(ctx, request.member, request.params.id),
    );

    app.delete(
      '/project/:id/xmpvalues',
      { config: projectNode('write'), schema: { params: projectParams, response: { 200: okResult } } },
      async (request) => {
        await metadata.clearAll(ctx, request.member, request.params.id);
        return ok;
      },
    );

    /** PUT of one value at each address, and POST of one language of an alt text. */
    const setValueRoute = (
      method: 'PUT' | 'POST',
      at: ValueAddress,
      body: typeof c.putXmpValueBody | typeof c.postXmpLangValueBody,
      response: typeof c.putXmpValueResponse | typeof c.postXmpLangValueResponse,
    ) =>
      app.route({
        method,
        url: at.url,
        config: projectNode('write'),
        schema: { params: at.params, body, response: { 200: response } },
        handler: async (request) =>
          written(
            await metadata.putValue(ctx, request.member, request.params.id, {
              ...addressedValue(request.params),
              value: request.body.value,
            }),
          ),
      });
    const deleteValueRoute = (at: ValueAddress) =>
      app.delete(
        at.url,
        { config: projectNode('write'), schema: { params: at.params, response: { 200: okResult } } },
        async (request) => {
          await metadata.deleteValue(ctx, request.member, request.params.id, addressedValue(request.params));
          return ok;
        },
      );

    for (const at of Object.values(valueAddresses)) {
      setValueRoute('PUT', at, c.putXmpValueBody, c.putXmpValueResponse);
    }

    app.post(
      '/project/:id/xmpvalue/:ids/position/:n',
      {
        config: projectNode('write'),
        schema: {
          params: c.xmpValuePositionParams,
          body: c.postXmpStructureItemBody,
          response: { 200: c.postXmpStructureItemResponse },
        },
      },
      async (request) =>
        written(
          await metadata.putStructureItem(ctx, request.member, request.params.id, {
            propertyId: request.params.ids,
            position: request.params.n,
            properties: request.body.properties,
          }),
        ),
    );

    setValueRoute('POST', valueAddresses.lang, c.postXmpLangValueBody, c.postXmpLangValueResponse);

    for (const at of Object.values(valueAddresses)) deleteValueRoute(at);

    app.get(
      '/project/:id/metadatasettings',
      {
        config: projectNode('read'),
        schema: { params: projectParams, response: { 200: c.metadataSettings } },
      },
      async (request) => metadata.getSettings(ctx, request.member, request.params.id),
    );

    app.put(
      '/project/:id/metadatasettings',
      {
        config: projectNode('write'),
        schema: { params: projectParams, body: c.metadataSettings, response: { 200: okResult } },
      },
      async (request) => {
        await metadata.setSettings(ctx, request.member, request.params.id, request.body);
        return ok;
      },
    );

    app.put(
      '/project/:id/xmpvaluemode/:propertyId/mode/:mode',
      { config: projectNode('write'), schema: { params: c.xmpModeParams, response: { 200: okResult } } },
      async (request) => {
        await metadata.setMode(
          ctx,
          request.member,
          request.params.id,
          request.params.propertyId,
          request.params.mode,
        );
        return ok;
      },
    );

    app.post(
      '/command/storexmpfile',
      { config: commandProject('write'), schema: { body: c.storeXmpFileBody, response: commandResponse } },
      async (request) => startCommand(ctx, request, 'storexmpfile', request.body),
    );

    app.post(
      '/command/downloadxmpfile',
      { config: commandProject('read'), schema: { body: c.downloadXmpFileBody, response: commandResponse } },
      async (request) => startCommand(ctx, request, 'downloadxmpfile', request.body),
    );

    // The test image travels as a data URL in JSON: the body limit is raised for this route only.
    app.post(
      '/command/processimage',
      {
        config: commandProject('read'),
        bodyLimit: c.testImageBodyLimit + 1024,
        schema: { body: c.processImageBody, response: commandResponse },
      },
      async (request) =>
        startCommand(
          ctx,
          request,
          'processimage',
          await testImage.acceptTestImage(ctx, request.member, request.body),
        ),
    );

    app.get(
      '/command/downloadresultfile/:a/:b',
      { config: forMembers, schema: { params: c.downloadResultParams } },
      async (request, reply) => {
        const result = await testImage.openTestResult(
          ctx,
          request.member,
          request.params.a,
          request.params.b,
        );
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
      },
    );
  };
}
