import * as c from '@photorelay/contract/jobs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as jobs from './service.ts';

/** Spec §7: POST team/jobs/summary and POST team/jobs/{pageSize}/{pageIndex}; plus retry now. */
export function jobRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, c.getJobSummary, async (request) => ({
      summary: await jobs.summary(ctx.db, request.member),
    }));

    handle(app, c.listJobs, async (request) =>
      jobs.listJobs(
        ctx.db,
        request.member,
        request.body.projectid,
        request.params.pageSize,
        request.params.pageIndex,
      ),
    );

    handle(app, c.listPictures, async (request) =>
      jobs.listPictures(
        ctx.db,
        request.member,
        request.body,
        request.params.pageSize,
        request.params.pageIndex,
      ),
    );

    handle(app, c.retryFailed, async (request) => ({
      retried: await jobs.retryFailed(ctx.db, request.member, request.body, ctx.wake.pipeline),
    }));

    handle(app, c.sendAgain, async (request) => ({
      jobs: await jobs.sendAgain(ctx, request.member, request.params.id, request.body.destinations),
    }));

    handle(app, c.retryJob, async (request) => {
      await jobs.retryJob(ctx.db, request.member, request.params.id, ctx.wake.pipeline);
      return { result: 'OK' as const };
    });
  };
}
