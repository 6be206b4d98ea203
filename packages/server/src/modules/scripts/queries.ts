import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

export type ScriptOwner = { projectId: number } | { folderId: number };

export interface StoredScript {
  filename: string;
  source: string;
}

const ownerColumn = (owner: ScriptOwner) =>
  'projectId' in owner
    ? ({ column: 'project_id', id: owner.projectId } as const)
    : ({ column: 'folder_id', id: owner.folderId } as const);

export async function findScript(
  db: Db,
  teamId: number,
  owner: ScriptOwner,
): Promise<StoredScript | undefined> {
  const { column, id } = ownerColumn(owner);
  return db
    .selectFrom('scripts')
    .select(['filename', 'source'])
    .where('team_id', '=', teamId)
    .where(column, '=', id)
    .executeTakeFirst();
}

/** One statement: a project or folder has at most one script, a new one replaces it. */
export async function upsertScript(db: Db, teamId: number, owner: ScriptOwner, script: StoredScript) {
  const { column, id } = ownerColumn(owner);
  await sql`
    insert into scripts (team_id, ${sql.ref(column)}, filename, source)
    values (${teamId}, ${id}, ${script.filename}, ${script.source})
    on conflict (${sql.ref(column)}) where ${sql.ref(column)} is not null
    do update set filename = excluded.filename, source = excluded.source, updated_at = now()
  `.execute(db);
}

export async function deleteScript(db: Db, teamId: number, owner: ScriptOwner) {
  const { column, id } = ownerColumn(owner);
  await db.deleteFrom('scripts').where('team_id', '=', teamId).where(column, '=', id).execute();
}

export interface ProcessingScripts {
  projectName: string;
  /** Folder scripts from the root down, then the project's own. */
  scripts: Array<StoredScript & { owner: 'folder' | 'project'; ownerName: string }>;
  /** Names of the project's enabled destinations (servers and projects). */
  destinations: string[];
}

/**
 * What the script step needs of a project, in one round trip: the scripts of its folders from
 * the root down and its own, its name and its enabled destinations' names. Undefined when the
 * project is gone.
 */
export async function loadProcessingScripts(
  db: Db,
  teamId: number,
  projectId: number,
): Promise<ProcessingScripts | undefined> {
  const result = await sql<{
    project_name: string;
    scripts: Array<{ filename: string; source: string; owner: 'folder' | 'project'; owner_name: string }>;
    destinations: string[];
  }>`
    with recursive project as (
      select id, name, folder_id from projects where id = ${projectId} and team_id = ${teamId}
    ), chain as (
      select f.id, f.parent_id, f.name, 0 as depth from folders f join project p on f.id = p.folder_id
      union all
      select f.id, f.parent_id, f.name, c.depth + 1 from folders f join chain c on f.id = c.parent_id
    )
    select p.name as project_name,
      coalesce((
        select json_agg(json_build_object('filename', s.filename, 'source', s.source, 'owner', s.owner,
                                          'owner_name', s.owner_name) order by s.depth desc)
        from (
          select sc.filename, sc.source, 'folder' as owner, c.name as owner_name, c.depth
          from chain c join scripts sc on sc.folder_id = c.id
          union all
          select sc.filename, sc.source, 'project', p.name, -1 from scripts sc where sc.project_id = p.id
        ) s
      ), '[]'::json) as scripts,
      array(
        select s.name from project_ftp_servers pf join ftp_servers s on s.id = pf.ftp_server_id
        where pf.project_id = p.id and pf.enabled
        union all
        select d.name from project_destination_projects pd join projects d on d.id = pd.destination_project_id
        where pd.project_id = p.id and pd.enabled
      ) as destinations
    from project p
  `.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    projectName: row.project_name,
    scripts: row.scripts.map((s) => ({
      filename: s.filename,
      source: s.source,
      owner: s.owner,
      ownerName: s.owner_name,
    })),
    destinations: row.destinations,
  };
}

/**
 * A script error stops the upload: it is kept as received ('failed') and its waiting jobs fail
 * at once with the message; "retry now" on one of them processes it again.
 */
export async function failUpload(db: Db, uploadId: number, message: string, detail: unknown) {
  await sql`
    with up as (
      update uploads set state = 'failed', locked_until = null, processing_detail = ${JSON.stringify(detail)}
      where id = ${uploadId}
      returning id
    )
    update jobs set state = 'failed', errortext = ${message}, finished_at = now(), locked_until = null
    where upload_id in (select id from up) and state = 'scheduled'
  `.execute(db);
}

/** After processing: reject(reason) ends every waiting job, skip(name) the jobs of that destination. */
export async function settleScriptedJobs(
  db: Db,
  uploadId: number,
  outcome: { rejected: string | null; skipped: string[] },
) {
  if (outcome.rejected !== null) {
    await sql`
      update jobs set state = 'rejected', errortext = ${outcome.rejected}, finished_at = now()
      where upload_id = ${uploadId} and state = 'scheduled'
    `.execute(db);
  } else if (outcome.skipped.length > 0) {
    await sql`
      update jobs set state = 'skipped', errortext = 'skipped by script', finished_at = now()
      where upload_id = ${uploadId} and state = 'scheduled'
        and coalesce(ftpservername, destprojectname) = any(${outcome.skipped}::text[])
    `.execute(db);
  }
}

/**
 * A run of the project's scripts ran into the sandbox's hard stop: counted, and from the second
 * in a row its uploads wait (5 s, doubling to 5 min) before they are claimed again
 * (pipeline/queue.ts claimUploadToProcess), so a looping script does not burn a core per picture.
 */
export const noteScriptHardStop = (db: Db, projectId: number) =>
  sql`insert into script_backoffs (project_id, hard_stops, until) values (${projectId}, 1, now())
      on conflict (project_id) do update set hard_stops = script_backoffs.hard_stops + 1,
        until = now() + make_interval(secs => least(300, 5 * power(2, least(script_backoffs.hard_stops, 16) - 1)))`.execute(
    db,
  );

/** A run that ended on its own: the project's count of hard stops starts again. */
export const clearScriptHardStops = (db: Db, projectId: number) =>
  db.deleteFrom('script_backoffs').where('project_id', '=', projectId).execute();

/** A script of the team was stored or deleted: its projects' uploads need not wait for the old one. */
export const clearTeamScriptBackoffs = (db: Db, teamId: number) =>
  db
    .deleteFrom('script_backoffs')
    .where('project_id', 'in', (eb) => eb.selectFrom('projects').select('id').where('team_id', '=', teamId))
    .execute();
