import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 28: the job log's file-name search (filename ilike '%…%') read every picture of the
    -- project (250 ms on PGlite at 100,000 jobs); a trigram index answers it from the few pictures
    -- whose names hold the searched letters (bench/job-log). pg_trgm is a trusted extension on
    -- PostgreSQL (the database's owner may create it); PGlite loads it in db/pglite-host.ts.
    create extension if not exists pg_trgm;
    create index uploads_filename_trgm on uploads using gin (filename gin_trgm_ops);
  `.execute(db);
}
