import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- One received file. 'received' until processing (metadata, script) made processed_blob.
    create table uploads (
      id bigserial primary key,
      team_id integer not null references teams(id) on delete cascade,
      project_id integer not null references projects(id) on delete cascade,
      path text not null,
      filename text not null,
      size bigint not null,
      sha256 text not null,
      blob_key text not null,
      processed_blob_key text,
      processed_size bigint,
      processed_sha256 text,
      state text not null default 'received' check (state in ('received', 'processing', 'processed')),
      processing_detail jsonb,
      locked_until timestamptz,
      protocol text not null,
      remote_address text,
      chain integer[] not null,
      source_upload_id bigint references uploads(id) on delete set null,
      duplicate_of bigint references uploads(id) on delete set null,
      received_at timestamptz not null default now()
    );
    create index uploads_project_path on uploads(project_id, path, received_at desc);
    create index uploads_pending on uploads(id) where state <> 'processed';
    create index uploads_received on uploads(received_at);

    create table jobs (
      id bigserial primary key,
      team_id integer not null references teams(id) on delete cascade,
      upload_id bigint not null references uploads(id) on delete cascade,
      project_id integer not null references projects(id) on delete cascade,
      ftp_server_id integer references ftp_servers(id) on delete set null,
      dest_project_id integer references projects(id) on delete set null,
      ftpservername text,
      destprojectname text,
      state text not null default 'scheduled' check (state in ('scheduled', 'running', 'failed', 'succeeded', 'duplicate')),
      scheduletime timestamptz not null default now(),
      createtime timestamptz not null default now(),
      trynumber integer not null default 0,
      errortext text,
      uploadduration integer,
      detail jsonb,
      locked_until timestamptz,
      locked_by text,
      finished_at timestamptz
    );
    create index jobs_due on jobs(scheduletime) where state in ('scheduled', 'running');
    create index jobs_project on jobs(project_id, id desc);
    create index jobs_upload on jobs(upload_id);

    -- Folders a camera made with MKD, so CWD into them works before the first file arrives.
    create table ingest_directories (
      project_id integer not null references projects(id) on delete cascade,
      path text not null,
      created_at timestamptz not null default now(),
      primary key (project_id, path)
    );

    -- The connection log: last 500 FTP/SFTP sessions per project (and failed logins without one).
    create table ingest_sessions (
      id bigserial primary key,
      project_id integer references projects(id) on delete cascade,
      username text,
      protocol text not null,
      tls boolean not null,
      remote_address text not null,
      login_result text,
      entries jsonb not null default '[]',
      started_at timestamptz not null,
      ended_at timestamptz
    );
    create index ingest_sessions_project on ingest_sessions(project_id, id desc);

    -- When a failure mail was last sent per destination, to send at most one an hour.
    create table failure_notices (
      project_id integer not null references projects(id) on delete cascade,
      destination text not null,
      sent_at timestamptz not null,
      primary key (project_id, destination)
    );
  `.execute(db);
}
