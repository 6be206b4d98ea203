import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 15: a project may hold back the pictures its metadata template cannot be stamped
    -- into (default: they are delivered unstamped); a held job waits until it is released.
    alter table projects add column hold_unstampable boolean not null default false;
    alter table jobs drop constraint jobs_state_check;
    alter table jobs add constraint jobs_state_check
      check (state in ('scheduled', 'running', 'failed', 'succeeded', 'duplicate', 'rejected', 'skipped', 'held'));
  `.execute(db);
}
