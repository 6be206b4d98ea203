import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The job claim walks the projects that have jobs waiting or running and takes each one's
    -- oldest due job (modules/jobs/queries.ts claimJob): both read this index, so a claim costs
    -- the same with 10 jobs due or 5,000.
    create index jobs_due_by_project on jobs(project_id, scheduletime, id) where state in ('scheduled', 'running');
    -- The deliveries running now, per project and per server (the claim's fair order and limits).
    create index jobs_running on jobs(project_id, ftp_server_id) where state = 'running';
  `.execute(db);
}
