import { z } from 'zod';

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
});
export const postSummaryResponse = z.object({ summary: z.array(summaryRow) });
