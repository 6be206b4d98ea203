import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

/** The newest uploads of some projects since a time, each with its jobs' states (one query). */
export const listRecentUploads = (
  db: Db,
  teamId: number,
  projectIds: number[],
  since: Date,
  limit: number,
) =>
  projectIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('uploads as u')
        .innerJoin('projects as p', 'p.id', 'u.project_id')
        .select([
          'u.id',
          'u.project_id',
          'p.name as project',
          'u.filename',
          'u.received_at',
          sql<
            {
              name: string;
              kind: 'ftpserver' | 'project';
              state: string;
              errortext: string | null;
              trynumber: number;
            }[]
          >`coalesce((select json_agg(json_build_object(
              'name', coalesce(j.ftpservername, j.destprojectname, ''),
              'kind', case when j.dest_project_id is null then 'ftpserver' else 'project' end,
              'state', j.state, 'errortext', j.errortext, 'trynumber', j.trynumber) order by j.id)
            from jobs j where j.upload_id = u.id), '[]'::json)`.as('deliveries'),
        ])
        .where('u.team_id', '=', teamId)
        .where('u.project_id', 'in', projectIds)
        .where('u.received_at', '>=', since)
        .orderBy('u.id', 'desc')
        .limit(limit)
        .execute();
