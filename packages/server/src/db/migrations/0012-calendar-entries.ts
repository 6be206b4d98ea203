import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The zone the team's dates are shown in; instants are stored in UTC.
    alter table teams add column time_zone text not null default 'Europe/Berlin';

    create table calendar_entries (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      calendar_id integer not null references calendars(id) on delete cascade,
      start_at timestamptz not null,
      end_at timestamptz not null,
      all_day boolean not null default false,
      summary text not null default '',
      description text not null default '',
      category text not null default '',
      subcategory text not null default '',
      scene text not null default '',
      location text not null default '',
      city text not null default '',
      state text not null default '',
      country text not null default '',
      team1 text not null default '',
      team2 text not null default '',
      urgency integer,
      flags integer not null default 0,
      cancelled_at timestamptz,
      created_by integer references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      -- Entries of an external calendar (ICS import): the feed's UID and the occurrence.
      external_uid text,
      recurrence_id text,
      -- A team copy made from an external entry, and what became of that entry since.
      source_entry_id integer references calendar_entries(id) on delete set null,
      source_status text check (source_status in ('changed', 'vanished'))
    );
    -- The month listing: one range scan per calendar, already in the answer's order.
    create index calendar_entries_listing on calendar_entries(team_id, calendar_id, start_at, id);
    create unique index calendar_entries_external on calendar_entries(calendar_id, external_uid, coalesce(recurrence_id, ''))
      where external_uid is not null;
    create index calendar_entries_source on calendar_entries(source_entry_id) where source_entry_id is not null;

    create table calendar_entry_confirmations (
      entry_id integer not null references calendar_entries(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      confirmed_at timestamptz not null default now(),
      primary key (entry_id, user_id)
    );

    create table bookings (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      entry_id integer not null references calendar_entries(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      state text not null default 'unset' check (state in ('unset', 'accepted', 'canceled', 'rejected')),
      accreditation text not null default 'notaccredited'
        check (accreditation in ('notaccredited', 'requested', 'processing', 'accredited', 'permanently')),
      -- The photographer's own answer to the invitations.
      answer text not null default 'open' check (answer in ('open', 'accepted', 'rejected')),
      suggested integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (entry_id, user_id)
    );
    create index bookings_user on bookings(team_id, user_id);

    create table booking_history (
      id serial primary key,
      booking_id integer not null references bookings(id) on delete cascade,
      changed_by integer references users(id) on delete set null,
      changed_at timestamptz not null default now(),
      field text not null,
      from_value text,
      to_value text
    );
    create index booking_history_booking on booking_history(booking_id, id);

    create table booking_invitations (
      id serial primary key,
      booking_id integer not null references bookings(id) on delete cascade,
      selector text not null unique,
      token_hash text not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index booking_invitations_booking on booking_invitations(booking_id);
  `.execute(db);
}
