import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- External calendars (ICS feeds): the validators of the last answer for conditional
    -- refreshes, when the next hourly refresh is due, and a lease so that one refresh at a time
    -- runs per team.
    alter table calendars
      add column etag text,
      add column last_modified text,
      add column refreshed_at timestamptz,
      add column last_error text,
      add column refresh_due_at timestamptz,
      add column refreshing_until timestamptz;
    create index calendars_refresh_due on calendars(refresh_due_at) where type <> 'default';

    -- A member's subscribable iCalendar feed: a secret URL (selector + token). The token is looked
    -- up by its hash and kept sealed (AES-GCM with the server's key) so the profile page can show it again.
    create table calendar_feed_tokens (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      selector text not null unique,
      token_hash text not null,
      token_sealed text not null,
      created_at timestamptz not null default now(),
      unique (team_id, user_id)
    );
  `.execute(db);
}
