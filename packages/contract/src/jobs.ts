import { z } from 'zod';
import { decimalParam, idParam, okResult } from './common.ts';
import { forMembers, forNode, teamRoute } from './route.ts';

export const jobStates = [
  'scheduled',
  'running',
  'failed',
  'succeeded',
  'duplicate',
  'held',
  'rejected',
  'skipped',
] as const;
export const job = z.object({
  id: z.number(),
  filename: z.string(),
  filesize: z.number(),
  ftpservername: z.string().nullable(),
  destprojectname: z.string().nullable(),
  state: z.string(),
  scheduletime: z.string(),
  createtime: z.string(),
  trynumber: z.number(),
  errortext: z.string().nullable(),
  uploadduration: z.number().nullable(),
  detail: z.unknown().optional(),
  canRetry: z.boolean(),
});
export type Job = z.infer<typeof job>;
export const postJobsBody = z.object({ projectid: z.number().int().positive() });
export const postJobsResponse = z.object({ jobs: z.array(job), count: z.number() });
export const summaryRow = z.object({
  projectid: z.number(),
  project: z.string(),
  ftpserver: z.string(),
  /** What `ftpserver` names: an FTP server or a destination project (issue 16 bugs). */
  destination: z.enum(['ftpserver', 'project']),
  jobcount: z.number(),
  failedjobcount: z.number(),
  /** Issue 15: deliveries of pictures that could not be stamped, held or sent unstamped. */
  heldjobcount: z.number().optional(),
  unstampedjobcount: z.number().optional(),
});
export const postSummaryResponse = z.object({ summary: z.array(summaryRow) });

// ---- routes (spec §7: POST team/jobs/summary and POST team/jobs/{pageSize}/{pageIndex}; retry now) ----

/** The dashboard's counts per project and destination; any body is accepted and ignored. */
export const getJobSummary = teamRoute({
  method: 'POST',
  path: '/jobs/summary',
  body: z.object({}).passthrough().optional(),
  response: postSummaryResponse,
  access: forMembers,
});

/** One page of a project's protocol tab. */
export const listJobs = teamRoute({
  method: 'POST',
  path: '/jobs/:pageSize/:pageIndex',
  params: z.object({ pageSize: decimalParam(1, 500), pageIndex: decimalParam(0, 1_000_000) }),
  body: postJobsBody,
  response: postJobsResponse,
  access: forNode('read', { kind: 'project', body: 'projectid' }),
});

/** Retry now: a failed or waiting delivery is scheduled at once. */
export const retryJob = teamRoute({
  method: 'POST',
  path: '/job/:id/retry',
  params: z.object({ id: idParam }),
  response: okResult,
  errors: ['Conflict'],
  access: forMembers,
});
