import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Async commands (spec §7): the row is the queue; state null until a runner finishes it.
    create table commands (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      kind text not null,
      token_hash text not null,
      payload jsonb not null,
      state text check (state in ('ok', 'error')),
      detail jsonb,
      attempts integer not null default 0,
      locked_until timestamptz,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index commands_pending on commands(id) where state is null;
  `.execute(db);
}
