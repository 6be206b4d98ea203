import { z } from 'zod';
import { fileDownload } from './common.ts';
import { forAnyone, forUsers, userRoute } from './route.ts';

// Settings the browser needs before login (legal pages), the debug switch, and the health probe;
// outside a team, under /api.

export const publicSettings = z.object({
  operatorName: z.string(),
  operatorAddress: z.string(),
  operatorEmail: z.string(),
  publicFtpHost: z.string(),
});
export type PublicSettings = z.infer<typeof publicSettings>;
export const debugSettings = z.object({ debugAdmin: z.boolean() });
export type DebugSettings = z.infer<typeof debugSettings>;

export const getPublicSettings = userRoute({
  method: 'GET',
  path: '/settings/public',
  response: publicSettings,
  access: forAnyone,
});

/** Not announced to visitors: only a logged-in user's page asks whether debug actions exist. */
export const getDebugSettings = userRoute({
  method: 'GET',
  path: '/settings/debug',
  response: debugSettings,
  access: forUsers,
});

/**
 * 200 when the server and its database answer; 503 DatabaseUnavailable while the database is
 * away. A full data disk (issue 30) keeps it 200, so that nothing restarts a process a restart
 * cannot help, but says so: `status: 'degraded'`, `disk: 'full'` (uploads are refused).
 * The dashboard reads `disk` for its banner.
 */
export const getHealth = userRoute({
  method: 'GET',
  path: '/health',
  response: z.object({
    status: z.enum(['ok', 'degraded']),
    database: z.literal('ok'),
    disk: z.enum(['ok', 'full']),
  }),
  access: forAnyone,
  errors: ['DatabaseUnavailable'],
});
export type Health = z.infer<typeof getHealth.response>;

/** Liveness: the process answers (no database asked: a database restart must not get it killed). */
export const getLiveness = userRoute({
  method: 'GET',
  path: '/live',
  response: z.object({ status: z.literal('alive') }),
  access: forAnyone,
});

/**
 * Readiness, apart from liveness (`/health`): may this process take traffic now? The database
 * answers and, in a process that runs ingest, the FTP/SFTP listeners are open. Otherwise `503`:
 * `DatabaseUnavailable`, `Unavailable` (the ingest is not listening), or `DiskFull` ("disk full –
 * uploads refused": free space on the data disk is under DISK_FREE_MIN_MB, or a write failed for
 * lack of space), so that a load balancer or orchestrator waits.
 */
export const getReadiness = userRoute({
  method: 'GET',
  path: '/ready',
  response: z.object({
    status: z.literal('ready'),
    database: z.literal('ok'),
    ingest: z.enum(['listening', 'none']),
    disk: z.literal('ok'),
  }),
  errors: ['Unavailable', 'DatabaseUnavailable', 'DiskFull'],
  access: forAnyone,
});

/**
 * Prometheus metrics (text exposition format). Answered to loopback clients, or to anyone with
 * `Authorization: Bearer $METRICS_TOKEN` when that is set; 404 otherwise.
 */
export const getMetrics = userRoute({
  method: 'GET',
  path: '/metrics',
  response: fileDownload,
  errors: ['NotFound'],
  access: forAnyone,
});
