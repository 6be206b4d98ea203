// Spec §4 'Job state' as display rules: scheduled shows 'starting' plus the time until start,
// with 'last try failed (error)' or 'scheduled at time' as detail; running; failed with the
// error; succeeded with the retries when there were any; duplicate (the camera sent the same
// file again, it is not sent twice); rejected (with the script's reason) and skipped by a script;
// anything else UNKNOWN.
import type { ParseKeys } from 'i18next';
import type { Job } from '../../api/jobs.ts';
import { formatTime, formatTimeUntil } from '../../ui/format.ts';

export type JobTone = 'info' | 'progress' | 'error' | 'success' | 'neutral';

/** A text of the `jobs` namespace with its values, or a text as the server sent it. */
export type JobText =
  | { key: ParseKeys<'jobs'>; values?: Record<string, string | number>; suffix?: string }
  | { text: string };

export type JobStateView = {
  state:
    | 'scheduled'
    | 'running'
    | 'failed'
    | 'succeeded'
    | 'duplicate'
    | 'held'
    | 'rejected'
    | 'skipped'
    | 'unknown';
  tone: JobTone;
  label: JobText;
  detail: JobText | null;
};

type JobLike = Pick<Job, 'state' | 'scheduletime' | 'trynumber' | 'errortext'>;

export function describeJobState(job: JobLike, now: number, language: string): JobStateView {
  switch (job.state) {
    case 'scheduled':
      return {
        state: 'scheduled',
        tone: 'info',
        label: { key: 'states.starting', suffix: formatTimeUntil(job.scheduletime, now, language) },
        detail: job.errortext
          ? { key: 'states.lastTryFailed', values: { error: job.errortext } }
          : { key: 'states.scheduledAt', values: { time: formatTime(job.scheduletime, language) } },
      };
    case 'running':
      return { state: 'running', tone: 'progress', label: { key: 'states.running' }, detail: null };
    case 'failed':
      return {
        state: 'failed',
        tone: 'error',
        label: { key: 'states.failed' },
        detail: job.errortext ? { text: job.errortext } : null,
      };
    case 'succeeded':
      return {
        state: 'succeeded',
        tone: 'success',
        label: { key: 'states.succeeded' },
        detail: job.trynumber > 0 ? { key: 'states.retries', values: { count: job.trynumber } } : null,
      };
    case 'duplicate':
      return { state: 'duplicate', tone: 'neutral', label: { key: 'states.duplicate' }, detail: null };
    case 'held':
      // Issue 15: the file could not be stamped and the project holds such pictures.
      return { state: 'held', tone: 'error', label: { key: 'states.held' }, detail: null };
    // A script's reject(reason) and skip(name): ended on purpose, not failed.
    case 'rejected':
      return {
        state: 'rejected',
        tone: 'neutral',
        label: { key: 'states.rejected' },
        detail: job.errortext ? { text: job.errortext } : null,
      };
    case 'skipped':
      return { state: 'skipped', tone: 'neutral', label: { key: 'states.skipped' }, detail: null };
    default:
      return { state: 'unknown', tone: 'neutral', label: { key: 'states.unknown' }, detail: null };
  }
}

/**
 * Why the metadata step could not stamp the file, so that it went out as it came (issue 15);
 * null when it was stamped or needed no stamping. The reason is the engine's message.
 */
export function unstampedReason(job: Pick<Job, 'detail'>): string | null {
  const detail = job.detail;
  if (typeof detail !== 'object' || detail === null || !('processing' in detail)) return null;
  const processing = detail.processing;
  if (typeof processing !== 'object' || processing === null || !('metadata' in processing)) return null;
  const metadata = processing.metadata;
  if (typeof metadata !== 'object' || metadata === null || !('error' in metadata)) return null;
  return typeof metadata.error === 'string' ? metadata.error : null;
}

/** Bytes per second of a finished upload, for the speed column; null when unknown. */
export function uploadSpeed(job: Pick<Job, 'state' | 'filesize' | 'uploadduration'>): number | null {
  if (job.state !== 'succeeded' || job.uploadduration === null || job.uploadduration < 0) return null;
  return job.filesize / (Math.max(job.uploadduration, 1) / 1000);
}
