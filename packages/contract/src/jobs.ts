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
/** One try of a delivery (issue 15): its start, duration, bytes sent and error. */
export const jobTry = z.object({
  startedAt: z.string(),
  durationMs: z.number(),
  bytes: z.number().nullable(),
  error: z.string().nullable(),
});
export type JobTry = z.infer<typeof jobTry>;
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
  /** The upload the job delivers (its picture: getUploadPicture). */
  uploadId: z.number().optional(),
  /** Every try, oldest first (issue 15); empty for jobs from before tries were kept. */
  tries: z.array(jobTry).optional(),
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
  /** Issue 16: jobs waiting for a retry after a failed try, the newest error, and whether the destination is failing now. */
  retryingjobcount: z.number().optional(),
  lasterror: z.string().nullable().optional(),
  failing: z.boolean().optional(),
});
export const postSummaryResponse = z.object({ summary: z.array(summaryRow) });

// Issue 16 "pictures, not only rows": an upload's thumbnail (job log, dashboard) and its larger
// preview with the caption and credit stamped into the file sent (job detail).
export const uploadPictureSizes = ['small', 'large'] as const;
export const getUploadPicture = teamRoute({
  method: 'GET',
  path: '/upload/:id/picture',
  params: z.object({ id: idParam }),
  query: z.object({ size: z.enum(uploadPictureSizes).default('small') }),
  /** The JPEG itself (image/jpeg); 204 when the file is no picture; PictureRefused when it is too large to decode. */
  response: z.unknown(),
  access: forMembers,
  errors: ['PictureRefused'],
  summary: "An upload's thumbnail (small, 160 px) or preview (large, 960 px) as JPEG",
});
export const uploadCaption = z.object({
  filename: z.string(),
  caption: z.string().nullable(),
  credit: z.string().nullable(),
});
export const getUploadCaption = teamRoute({
  method: 'GET',
  path: '/upload/:id/caption',
  params: z.object({ id: idParam }),
  response: uploadCaption,
  access: forMembers,
  summary: 'The caption and credit stamped into the file sent',
});

/** A picture of today with how far it got to each destination (photographer page, dashboard). */
export const uploadDelivery = z.object({
  name: z.string(),
  kind: z.enum(['ftpserver', 'project']),
  state: z.string(),
  errortext: z.string().nullable(),
  trynumber: z.number(),
});
export const recentUpload = z.object({
  id: z.number(),
  projectid: z.number(),
  project: z.string(),
  filename: z.string(),
  receivedAt: z.string(),
  deliveries: z.array(uploadDelivery),
});
export type RecentUpload = z.infer<typeof recentUpload>;
export const getRecentUploads = teamRoute({
  method: 'GET',
  path: '/uploads/recent',
  query: z.object({
    /** From when on (the page sends the local midnight for "today"). */
    since: z.iso.datetime({ offset: true }),
    limit: z.coerce.number().int().min(1).max(200).default(100),
  }),
  response: z.object({ uploads: z.array(recentUpload) }),
  access: forMembers,
  summary: 'Pictures received since a time in the projects this member may read, newest first',
});

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
