import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 28: the job log pages a project's pictures newest first, and filters them by the
    -- deliveries that need attention (failed, retrying, waiting): both stay index scans at
    -- 100,000 jobs (bench/job-log).
    create index uploads_project_id on uploads(project_id, id desc);
    create index jobs_open_by_project on jobs(project_id, upload_id) where state in ('failed', 'scheduled', 'running', 'held');
    -- A destination's health (its FTP server list and page): its newest finished delivery and
    -- what waits for it, per server.
    create index jobs_server_finished on jobs(ftp_server_id, finished_at desc) where ftp_server_id is not null;
    create index jobs_open_by_server on jobs(ftp_server_id) where state in ('scheduled', 'running', 'held');
  `.execute(db);
}
