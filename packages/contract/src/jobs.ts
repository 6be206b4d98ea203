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

// ---- Issue 28: the job log one picture a row, plain causes, retry all, send again ----

/**
 * Why a delivery or a picture failed, named plainly: the web words it (en/de) from the code
 * and values, the raw text stays behind "Details". `scope` says whose fault it is: a script
 * error is the picture's (shown once per picture), a refused login the destination's (shown
 * once per destination, as a banner).
 */
export const causeCodes = [
  'script',
  'loginRefused',
  'folderNotCreated',
  'refused',
  'unknownHost',
  'timeout',
  'connectionLost',
  'noPermission',
  'destinationGone',
  'privateNetwork',
  'tls',
  'other',
] as const;
export const failureCause = z.object({
  code: z.enum(causeCodes),
  scope: z.enum(['picture', 'destination']),
  /** What the sentence names: destination, script, line, message, reply, folder. */
  values: z.record(z.string(), z.string()),
  /** The technical text (Details). */
  raw: z.string(),
});
export type FailureCause = z.infer<typeof failureCause>;

/** The states a picture can be filtered by (over its deliveries). */
export const pictureStateFilters = ['failed', 'retrying', 'waiting', 'delivered', 'unstamped'] as const;
export type PictureStateFilter = (typeof pictureStateFilters)[number];

export const pictureDelivery = z.object({
  jobId: z.number(),
  name: z.string(),
  kind: z.enum(['ftpserver', 'project']),
  state: z.string(),
  trynumber: z.number(),
  scheduletime: z.string(),
  uploadduration: z.number().nullable(),
  errortext: z.string().nullable(),
  /** Null when the delivery did not fail, or when the cause is the picture's (shown once there). */
  cause: failureCause.nullable(),
  canRetry: z.boolean(),
  tries: z.array(jobTry),
});
export type PictureDelivery = z.infer<typeof pictureDelivery>;
export const pictureRow = z.object({
  uploadId: z.number(),
  projectid: z.number(),
  project: z.string(),
  filename: z.string(),
  filesize: z.number(),
  receivedAt: z.string(),
  /** The picture's own failure (a script error), once for all its deliveries. */
  cause: failureCause.nullable(),
  /** Delivered without its metadata (the stamping failed): why. */
  unstamped: z.string().nullable(),
  /**
   * Issue 26: the camera's EXIF texts (ImageDescription, Artist, Copyright) stamping left with
   * their old value because the EXIF block could not be changed safely; empty when none.
   */
  exifNotUpdated: z.array(z.string()),
  /**
   * Issue 28: template variables this picture had no value for ("{photographer} had no value for
   * camera serial 1234"); `serial` '' = the picture names no camera serial.
   */
  emptyVariables: z.array(z.object({ name: z.string(), serial: z.string().optional() })),
  deliveries: z.array(pictureDelivery),
  canSendAgain: z.boolean(),
});
export type PictureRow = z.infer<typeof pictureRow>;
/** A destination failing now: named once with the pictures waiting for it. */
export const destinationProblem = z.object({
  name: z.string(),
  kind: z.enum(['ftpserver', 'project']),
  projectid: z.number(),
  waiting: z.number(),
  cause: failureCause,
});
export type DestinationProblem = z.infer<typeof destinationProblem>;

const searchText = z.string().trim().max(200);
export const pictureFilter = z
  .object({
    projectid: z.number().int().positive().optional(),
    state: z.enum(pictureStateFilters).optional(),
    /** A destination's name (FTP server or destination project). */
    destination: z.string().trim().min(1).max(256).optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    /** Part of the file name, any case. */
    search: searchText.optional(),
  })
  .strict();
export type PictureFilter = z.infer<typeof pictureFilter>;
export const listPicturesResponse = z.object({
  pictures: z.array(pictureRow),
  /** Matching pictures, counted up to 1,000 (then `countCapped`: "more than 1,000"). */
  count: z.number(),
  countCapped: z.boolean(),
  problems: z.array(destinationProblem),
  /** The destinations there are to filter by and send to. */
  destinations: z.array(z.object({ name: z.string(), kind: z.enum(['ftpserver', 'project']) })),
});
export type ListPicturesResponse = z.infer<typeof listPicturesResponse>;

/** The job log: one picture a row with its deliveries, filtered, newest first. */
export const listPictures = teamRoute({
  method: 'POST',
  path: '/pictures/:pageSize/:pageIndex',
  params: z.object({ pageSize: decimalParam(1, 200), pageIndex: decimalParam(0, 1_000_000) }),
  body: pictureFilter,
  response: listPicturesResponse,
  access: forMembers,
  summary: 'Pictures with their deliveries, filtered by state, destination, project, date and file name',
});

/**
 * "Retry all failed": of a project (all the member may change when left out), of one
 * destination, or of the chosen deliveries.
 */
export const postRetryFailedBody = z
  .object({
    projectid: z.number().int().positive().optional(),
    destination: z.string().trim().min(1).max(256).optional(),
    jobIds: z.array(z.number().int().positive()).min(1).max(1000).optional(),
  })
  .strict();
export const retryFailed = teamRoute({
  method: 'POST',
  path: '/jobs/retryfailed',
  body: postRetryFailedBody,
  response: z.object({ retried: z.number() }),
  errors: ['ValidationError'],
  access: forMembers,
  summary: 'Retries the failed and waiting deliveries of a project, a destination or a selection',
});

/** "Send again": processed again with today's metadata and script, to all or chosen destinations. */
export const postSendAgainBody = z
  .object({
    /** Destination names; all the project's destinations when left out. */
    destinations: z.array(z.string().trim().min(1).max(256)).min(1).max(100).optional(),
  })
  .strict();
export const sendAgain = teamRoute({
  method: 'POST',
  path: '/upload/:id/sendagain',
  params: z.object({ id: idParam }),
  body: postSendAgainBody,
  response: z.object({ jobs: z.number() }),
  errors: ['Conflict', 'ValidationError'],
  access: forMembers,
  summary: 'Processes a picture again with the current metadata and script and delivers it again',
});
