import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 16: a picture's small thumbnail (job log, dashboard) and larger preview (job detail),
    -- made once on first request and kept with the upload; retention removes them with it.
    alter table uploads add column thumbnail_blob_key text;
    alter table uploads add column preview_blob_key text;
  `.execute(db);
}
