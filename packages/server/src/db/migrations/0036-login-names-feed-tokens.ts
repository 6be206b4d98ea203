import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 25: failures on user names no account has are counted apart (a much higher limit
    -- blocks the whole address), so made-up names cannot lock out the cameras behind a NAT.
    alter table ingest_login_failures add column unknown_name boolean not null default false;

    -- Issue 25: a feed token now goes with its membership (teams/members.ts removeUser); those of
    -- members removed before would come back to life if the person rejoined.
    delete from calendar_feed_tokens f
    where not exists (select 1 from team_members m where m.team_id = f.team_id and m.user_id = f.user_id);
  `.execute(db);
}
