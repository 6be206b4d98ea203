import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- One script per project or per folder of type projects (spec §3 Script: filename, source).
    create table scripts (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      project_id integer references projects(id) on delete cascade,
      folder_id integer references folders(id) on delete cascade,
      filename text not null,
      source text not null,
      updated_at timestamptz not null default now(),
      check ((project_id is null) <> (folder_id is null))
    );
    create unique index scripts_project on scripts(project_id) where project_id is not null;
    create unique index scripts_folder on scripts(folder_id) where folder_id is not null;
    create index scripts_team on scripts(team_id);

    -- A script's reject(reason) ends the jobs as 'rejected', skip(name) one job as 'skipped';
    -- a script error fails the upload ('failed') until "retry now" processes it again.
    alter table jobs drop constraint jobs_state_check;
    alter table jobs add constraint jobs_state_check
      check (state in ('scheduled', 'running', 'failed', 'succeeded', 'duplicate', 'rejected', 'skipped'));
    alter table uploads drop constraint uploads_state_check;
    alter table uploads add constraint uploads_state_check
      check (state in ('received', 'processing', 'processed', 'failed'));
    -- The name a script gave the file (file.name); null delivers it under its own name.
    alter table uploads add column processed_filename text;
  `.execute(db);
}
