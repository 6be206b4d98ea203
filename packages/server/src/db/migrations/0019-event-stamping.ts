import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 13: event-aware stamping. On: a picture shot during a booked event of the team's
    -- default calendar gets the event's fields where the project's template leaves them unset.
    alter table projects add column event_stamping boolean not null default false;
  `.execute(db);
}
