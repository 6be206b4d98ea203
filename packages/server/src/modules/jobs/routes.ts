import { decimalParam, idParam, okResult } from '@photorelay/contract/common';
import * as c from '@photorelay/contract/jobs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { forMembers, forNode } from '../../http/access.ts';
import * as jobs from './service.ts';

const id = idParam;

/** Spec §7: POST team/jobs/summary and POST team/jobs/{pageSize}/{pageIndex}; plus retry now. */
export function jobRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/jobs/summary',
      {
        config: forMembers,
        schema: { body: z.object({}).passthrough().optional(), response: { 200: c.postSummaryResponse } },
      },
      async (request) => ({ summary: await jobs.summary(ctx.db, request.member) }),
    );

    app.post(
      '/jobs/:pageSize/:pageIndex',
      {
        config: forNode('read', { kind: 'project', body: 'projectid' }),
        schema: {
          params: z.object({
            teamUuid: z.string(),
            pageSize: decimalParam(1, 500),
            pageIndex: decimalParam(0, 1_000_000),
          }),
          body: c.postJobsBody,
          response: { 200: c.postJobsResponse },
        },
      },
      async (request) =>
        jobs.listJobs(
          ctx.db,
          request.member,
          request.body.projectid,
          request.params.pageSize,
          request.params.pageIndex,
        ),
    );

    app.post(
      '/job/:id/retry',
      {
        config: forMembers,
        schema: { params: z.object({ teamUuid: z.string(), id }), response: { 200: okResult } },
      },
      async (request) => {
        await jobs.retryJob(ctx.db, request.member, request.params.id, ctx.wake.pipeline);
        return { result: 'OK' as const };
      },
    );
  };
}
