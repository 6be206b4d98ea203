import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id serial primary key,
      email text not null unique,
      password_hash text not null,
      first_name text not null,
      last_name text not null,
      email_verified boolean not null default false,
      registration_completed boolean not null default false,
      language text not null default 'en',
      timezone text not null default 'Europe/Berlin',
      current_team_id integer,
      created_at timestamptz not null default now()
    );
    create table sessions (
      id_hash text primary key,
      user_id integer not null references users(id) on delete cascade,
      persistent boolean not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index sessions_user on sessions(user_id);
    -- Split tokens: the selector finds the row, the token is only stored as a hash.
    create table tokens (
      id serial primary key,
      kind text not null check (kind in ('verify', 'reset', 'invite')),
      selector text not null unique,
      token_hash text not null,
      email text not null,
      user_id integer references users(id) on delete cascade,
      team_id integer,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}
