import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../../http/session.ts';

const publicSettings = z.object({
  operatorName: z.string(),
  operatorAddress: z.string(),
  operatorEmail: z.string(),
  publicFtpHost: z.string(),
});
const debugSettings = z.object({ debugAdmin: z.boolean() });

/** Settings the browser needs before login (legal pages), and the debug switch for logged-in users. */
export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/settings/public', { schema: { response: { 200: publicSettings } } }, async () => ({
      operatorName: ctx.config.OPERATOR_NAME,
      operatorAddress: ctx.config.OPERATOR_ADDRESS,
      operatorEmail: ctx.config.OPERATOR_EMAIL,
      publicFtpHost: ctx.config.publicFtpHost,
    }));
    // Not announced to visitors: only a logged-in user's page asks whether debug actions exist.
    app.get('/settings/debug', { schema: { response: { 200: debugSettings } } }, async (request) => {
      requireUser(request);
      return { debugAdmin: ctx.config.DEBUG_ADMIN };
    });
    app.get('/health', { schema: { response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => {
      await ctx.db.selectFrom('teams').select('id').limit(1).execute();
      return { status: 'ok' as const };
    });
  };
}
