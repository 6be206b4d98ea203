import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table projects (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      folder_id integer not null references folders(id),
      name text not null,
      ingest_username text not null unique,
      ingest_password_enc text not null,
      fileincount bigint not null default 0,
      fileoutcount bigint not null default 0,
      bytesreceived bigint not null default 0,
      bytessent bigint not null default 0,
      created_at timestamptz not null default now()
    );
    create index projects_team on projects(team_id, folder_id);

    create table ftp_servers (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      folder_id integer not null references folders(id),
      name text not null,
      host text not null,
      port integer,
      path text not null default '',
      protocol text not null default 'ftp' check (protocol in ('ftp', 'ftps', 'sftp')),
      username text not null,
      password_enc text not null,
      max_connections integer not null default 4,
      created_at timestamptz not null default now()
    );
    create index ftp_servers_team on ftp_servers(team_id, folder_id);

    -- Destinations of a project; 'enabled' switches one off without removing it.
    create table project_ftp_servers (
      project_id integer not null references projects(id) on delete cascade,
      ftp_server_id integer not null references ftp_servers(id) on delete cascade,
      path text,
      enabled boolean not null default true,
      primary key (project_id, ftp_server_id)
    );
    create table project_destination_projects (
      project_id integer not null references projects(id) on delete cascade,
      destination_project_id integer not null references projects(id) on delete cascade,
      enabled boolean not null default true,
      primary key (project_id, destination_project_id),
      check (project_id <> destination_project_id)
    );
  `.execute(db);
}
