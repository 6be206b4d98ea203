import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 25: a project whose script keeps running into the sandbox's hard stop (the thread is
    -- ended a while after the time limit) waits: its uploads are not claimed until 'until', so
    -- a looping script does not take a core and a sandbox thread for every one of its pictures.
    -- 'hard_stops' counts the stops in a row; a run that ends on its own removes the row.
    create table script_backoffs (
      project_id integer primary key references projects(id) on delete cascade,
      hard_stops integer not null,
      until timestamptz not null
    );
    -- The upload claim goes team by team (fair across teams): each team's oldest waiting upload
    -- is an index probe, instead of sorting every waiting upload (bench/claim/uploads.ts).
    create index uploads_waiting_by_team on uploads(team_id, id) where state in ('received', 'processing');
  `.execute(db);
}
