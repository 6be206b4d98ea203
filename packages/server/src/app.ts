import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { commandStateRoutes } from './commands/routes.ts';
import type { AppContext } from './context.ts';
import { enforceRouteAccess, recordTeamRoute } from './http/access.ts';
import { frameworkErrorAnswers, registerErrorHandler, registerNotFound } from './http/errors.ts';
import { requestLogSerializers } from './http/log-redaction.ts';
import { sessionSecurityScheme } from './http/route.ts';
import { registerRequestGuards, securityHeaders } from './http/security.ts';
import { registerSession, teamScope } from './http/session.ts';
import { accountRoutes } from './modules/account/routes.ts';
import { calendarInvitationRoutes } from './modules/calendar/invitation-routes.ts';
import { calendarRoutes } from './modules/calendar/routes.ts';
import { configFileRoutes } from './modules/configfiles/routes.ts';
import { calendarFeedPublicRoutes, calendarFeedRoutes } from './modules/externalcalendars/feed-routes.ts';
import { externalCalendarRoutes } from './modules/externalcalendars/routes.ts';
import { folderRoutes } from './modules/folders/routes.ts';
import { ftpServerRoutes } from './modules/ftpservers/routes.ts';
import { uploadPictureRoutes } from './modules/jobs/picture-routes.ts';
import { jobRoutes } from './modules/jobs/routes.ts';
import { metadataRoutes } from './modules/metadata/routes.ts';
import { projectRoutes } from './modules/projects/routes.ts';
import { scriptRoutes } from './modules/scripts/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { teamRoutes } from './modules/teams/routes.ts';

const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Team-scoped areas, each a plugin mounted under /api/:teamUuid. Later areas add themselves here. */
const teamAreas = [
  teamRoutes,
  folderRoutes,
  configFileRoutes,
  projectRoutes,
  ftpServerRoutes,
  jobRoutes,
  uploadPictureRoutes,
  metadataRoutes,
  scriptRoutes,
  commandStateRoutes,
  calendarRoutes,
  externalCalendarRoutes,
  calendarFeedRoutes,
];

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log.child(
      {},
      { serializers: requestLogSerializers(ctx.log.isLevelEnabled('debug')) },
    ) as FastifyBaseLogger,
    // Forwarded headers count only from the proxies named in TRUST_PROXY: anyone can send them.
    trustProxy: ctx.config.TRUST_PROXY.length ? ctx.config.TRUST_PROXY : false,
    bodyLimit: 2 * 1024 * 1024,
    // A request (headers and body) that takes longer is cut off with 408 (issue 29): a slow
    // client must not hold a connection for minutes. Node checks every tenth of the limit.
    requestTimeout: ctx.config.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
    http: {
      headersTimeout:
        Math.min(ctx.config.HTTP_HEADERS_TIMEOUT_SECONDS, ctx.config.HTTP_REQUEST_TIMEOUT_SECONDS) * 1000,
      connectionsCheckingInterval: Math.min(30_000, ctx.config.HTTP_REQUEST_TIMEOUT_SECONDS * 100),
    },
    ...frameworkErrorAnswers(securityHeaders(ctx.config.publicUrl)),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  registerErrorHandler(app);
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  registerRequestGuards(app, ctx.config.publicUrl);
  registerSession(app, ctx.db);

  await app.register(swagger, {
    openapi: {
      info: { title: 'PhotoRelay API', version: '1.0.0' },
      components: { securitySchemes: sessionSecurityScheme },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(settingsRoutes(ctx), { prefix: '/api' });
  await app.register(accountRoutes(ctx), { prefix: '/api' });
  await app.register(calendarInvitationRoutes(ctx), { prefix: '/api' });
  await app.register(calendarFeedPublicRoutes(ctx), { prefix: '/api' });
  await app.register(
    async (team) => {
      team.addHook('onRequest', teamScope(ctx.db));
      team.addHook('onRoute', recordTeamRoute);
      team.addHook('preValidation', enforceRouteAccess(ctx.db));
      for (const area of teamAreas) await team.register(area(ctx));
    },
    { prefix: '/api/:teamUuid' },
  );

  await serveWebApp(app);
  return app;
}

/** The built React app from the same origin; unknown non-API GETs get index.html (client routing). */
async function serveWebApp(app: FastifyInstance) {
  const index = path.join(webDist, 'index.html');
  if (!fs.existsSync(index)) return registerNotFound(app, null);
  const assets = path.join(webDist, 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // The build names every file under assets/ by its content: a browser keeps it without asking
    // again (a new build has new names; index.html itself is always revalidated). Issue 16.
    setHeaders: (reply, file) => {
      if (file.startsWith(assets)) reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  registerNotFound(app, fs.readFileSync(index));
}
