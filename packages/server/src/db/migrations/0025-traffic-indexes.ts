import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 16: the overview's traffic chart reads a project's uploads and delivered jobs of the
    -- last hour (per minute) and of the last days (per hour); both ranges are index scans.
    create index uploads_project_received on uploads(project_id, received_at);
    create index jobs_project_finished on jobs(project_id, finished_at) where state = 'succeeded';
  `.execute(db);
}
