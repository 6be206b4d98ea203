import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import type { ClaimedJob } from './queue.ts';

/**
 * Takes the right to mail about a destination's failures: true at most once per project,
 * destination and hour.
 */
export async function claimFailureNotice(db: Db, projectId: number, destination: string): Promise<boolean> {
  const claimed = await sql<{ project_id: number }>`
    insert into failure_notices (project_id, destination, sent_at) values (${projectId}, ${destination}, now())
    on conflict (project_id, destination) do update set sent_at = now()
    where failure_notices.sent_at < now() - interval '1 hour'
    returning project_id
  `.execute(db);
  return claimed.rows.length > 0;
}

export const findProjectName = (db: Db, projectId: number) =>
  db.selectFrom('projects').select('name').where('id', '=', projectId).executeTakeFirstOrThrow();

/** Owners and operators (groups with all permissions) with a verified address. */
export const listNotifiedMembers = (db: Db, teamId: number) =>
  db
    .selectFrom('team_members as m')
    .innerJoin('groups as g', 'g.id', 'm.group_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.email', 'u.language'])
    .where('m.team_id', '=', teamId)
    .where('g.has_all_permissions', '=', true)
    .where('u.email_verified', '=', true)
    .execute();

/** Jobs of the project to the same destination as `job` that failed for good in the last hour. */
export const listRecentlyFailed = (db: Db, job: ClaimedJob) =>
  db
    .selectFrom('jobs as j')
    .innerJoin('uploads as u', 'u.id', 'j.upload_id')
    .select(['u.path', 'j.ftpservername', 'j.destprojectname'])
    .where('j.project_id', '=', job.projectId)
    .where('j.state', '=', 'failed')
    .where(
      job.ftpServerId ? 'j.ftp_server_id' : 'j.dest_project_id',
      '=',
      job.ftpServerId ?? job.destProjectId ?? -1,
    )
    .where('j.finished_at', '>', sql<Date>`now() - interval '1 hour'`)
    .orderBy('j.id')
    .limit(200)
    .execute();
