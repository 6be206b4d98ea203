import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 15 (the pipeline's tail): every try of a delivery, also the ones a later success
    -- would hide (a job's errortext is cleared when it succeeds). Gone with its job.
    create table job_tries (
      id bigserial primary key,
      job_id bigint not null references jobs(id) on delete cascade,
      started_at timestamptz not null,
      duration_ms integer not null,
      bytes bigint,
      error text
    );
    create index job_tries_job on job_tries(job_id, id);
  `.execute(db);
}
