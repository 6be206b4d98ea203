import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';

const publicSettings = z.object({
  operatorName: z.string(),
  operatorAddress: z.string(),
  operatorEmail: z.string(),
  debugAdmin: z.boolean(),
  publicFtpHost: z.string(),
});

/** Settings the browser needs before login (legal pages, debug features). */
export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/settings/public', { schema: { response: { 200: publicSettings } } }, async () => ({
      operatorName: ctx.config.OPERATOR_NAME,
      operatorAddress: ctx.config.OPERATOR_ADDRESS,
      operatorEmail: ctx.config.OPERATOR_EMAIL,
      debugAdmin: ctx.config.DEBUG_ADMIN,
      publicFtpHost: ctx.config.publicFtpHost,
    }));
    app.get('/health', { schema: { response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => {
      await ctx.db.selectFrom('teams').select('id').limit(1).execute();
      return { status: 'ok' as const };
    });
  };
}
