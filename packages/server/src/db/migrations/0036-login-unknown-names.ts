import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 25: failures on user names no account has are counted apart (a much higher limit
    -- blocks the whole address), so made-up names cannot lock out the cameras behind a NAT.
    alter table ingest_login_failures add column unknown_name boolean not null default false;
  `.execute(db);
}
