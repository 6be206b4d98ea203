import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { forMembers } from '../../http/access.ts';

const summaryRow = z.object({
  projectid: z.number(),
  project: z.string(),
  ftpserver: z.string(),
  jobcount: z.number(),
  failedjobcount: z.number(),
});

/** Dashboard summary (spec §7 Projects). Jobs arrive with the transfer pipeline; until then it is empty. */
export function jobRoutes(_ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/jobs/summary',
      {
        config: forMembers,
        schema: {
          body: z.object({}).passthrough().optional(),
          response: { 200: z.object({ summary: z.array(summaryRow) }) },
        },
      },
      async () => ({ summary: [] }),
    );
  };
}
