import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';

/** Why a destination's waiting jobs ended without a try (the job log shows it as their error). */
export const destinationGoneReasons = {
  deleted: 'The FTP server was deleted',
  removed: 'The FTP server was removed from the project',
} as const;

/**
 * Ends the waiting jobs (scheduled or held) of an FTP server at once, in all projects or in one:
 * failed with the reason, no further try and no give-up mail. Jobs running now end with their
 * next try (the delivery finds the server gone). Call it before the server or its link goes.
 */
export async function endWaitingJobs(
  db: Db,
  target: { ftpServerId: number; projectId?: number },
  reason: keyof typeof destinationGoneReasons,
) {
  const result = await sql<{ id: number }>`
    update jobs set state = 'failed', errortext = ${destinationGoneReasons[reason]}, finished_at = now(),
      locked_until = null, detail = jsonb_build_object('destinationGone', ${reason}::text)
    where ftp_server_id = ${target.ftpServerId} and state in ('scheduled', 'held')
      and (${target.projectId ?? null}::integer is null or project_id = ${target.projectId ?? null}::integer)
    returning id
  `.execute(db);
  return result.rows.length;
}
