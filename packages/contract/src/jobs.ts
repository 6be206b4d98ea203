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
  /** Issue 16: jobs waiting for a retry after a failed try, the newest error, and whether the destination is failing now. */
  retryingjobcount: z.number().optional(),
  lasterror: z.string().nullable().optional(),
  failing: z.boolean().optional(),
});
export const postSummaryResponse = z.object({ summary: z.array(summaryRow) });
