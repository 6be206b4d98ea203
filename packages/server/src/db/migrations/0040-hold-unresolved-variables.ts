import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 28 item 5: a project may hold back the pictures a template variable had no value for
    -- ("Photo:  / Agency"); default: they are sent as they are, with the warning in the job log.
    alter table projects add column hold_unresolved_variables boolean not null default false;
  `.execute(db);
}
