import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import type { QueueFigures } from './metrics.ts';

/** The queue as Prometheus sees it: one statement over the partial indexes of waiting work. */
export async function readQueueFigures(db: Db): Promise<QueueFigures> {
  const { rows } = await sql<{
    jobs_waiting: string;
    jobs_running: string;
    oldest_seconds: number | null;
    uploads_waiting: string;
  }>`
    select
      (select count(*) from jobs where state = 'scheduled') as jobs_waiting,
      (select count(*) from jobs where state = 'running') as jobs_running,
      (select extract(epoch from now() - min(createtime))::float8 from jobs
        where state in ('scheduled', 'running')) as oldest_seconds,
      (select count(*) from uploads where state in ('received', 'processing')) as uploads_waiting
  `.execute(db);
  const row = rows[0];
  return {
    jobsWaiting: Number(row?.jobs_waiting ?? 0),
    jobsRunning: Number(row?.jobs_running ?? 0),
    oldestWaitingSeconds: Math.max(0, row?.oldest_seconds ?? 0),
    uploadsWaiting: Number(row?.uploads_waiting ?? 0),
  };
}
