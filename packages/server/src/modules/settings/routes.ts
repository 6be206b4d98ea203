import { AppError } from '@photorelay/contract/errors';
import * as c from '@photorelay/contract/settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { databaseAnswers } from '../../db/kysely.ts';
import { handle } from '../../http/route.ts';
import { requireUser } from '../../http/session.ts';
import { renderMetrics } from '../../observe/metrics.ts';
import { metricsAllowed } from './metrics-access.ts';

/** Settings the browser needs before login (legal pages), and the debug switch for logged-in users. */
export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, c.getPublicSettings, async () => ({
      operatorName: ctx.config.OPERATOR_NAME,
      operatorAddress: ctx.config.OPERATOR_ADDRESS,
      operatorEmail: ctx.config.OPERATOR_EMAIL,
      publicFtpHost: ctx.config.publicFtpHost,
    }));
    handle(app, c.getDebugSettings, async (request) => {
      requireUser(request);
      return { debugAdmin: ctx.config.DEBUG_ADMIN };
    });
    // Probes call it every few seconds: no request log line for each (issue 16 'Also').
    handle(
      app,
      c.getHealth,
      async () => {
        if (!(await databaseAnswers(ctx.db)))
          throw new AppError('DatabaseUnavailable', 'database unavailable');
        const full = ctx.disk.state().full;
        return {
          status: full ? ('degraded' as const) : ('ok' as const),
          database: 'ok' as const,
          disk: full ? ('full' as const) : ('ok' as const),
        };
      },
      { logLevel: 'silent' },
    );
    handle(app, c.getLiveness, async () => ({ status: 'alive' as const }), { logLevel: 'silent' });
    handle(
      app,
      c.getReadiness,
      async () => {
        const ingest = ctx.parts.ingest;
        if (ingest === 'stopped') throw new AppError('Unavailable', 'ingest not listening');
        if (!(await databaseAnswers(ctx.db, 2000)))
          throw new AppError('DatabaseUnavailable', 'database unavailable');
        if (ctx.disk.state().full) throw new AppError('DiskFull', 'disk full – uploads refused');
        return { status: 'ready' as const, database: 'ok' as const, ingest, disk: 'ok' as const };
      },
      { logLevel: 'silent' },
    );
    handle(
      app,
      c.getMetrics,
      async (request, reply) => {
        if (!metricsAllowed(request, ctx.config.METRICS_TOKEN)) throw new AppError('NotFound');
        const { contentType, text } = await renderMetrics();
        return reply.header('content-type', contentType).send(text);
      },
      { logLevel: 'silent' },
    );
  };
}
