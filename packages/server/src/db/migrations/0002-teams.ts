import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table teams (
      id serial primary key,
      uuid uuid not null unique default gen_random_uuid(),
      name text not null,
      ready boolean not null default false,
      created_at timestamptz not null default now()
    );
    create table groups (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      name text not null check (name in ('Owner', 'Operator', 'Photographer')),
      has_all_permissions boolean not null,
      unique (team_id, name)
    );
    create table team_members (
      team_id integer not null references teams(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      group_id integer not null references groups(id),
      accreditation_number text,
      created_at timestamptz not null default now(),
      primary key (team_id, user_id)
    );
    create index team_members_user on team_members(user_id);
    alter table users add foreign key (current_team_id) references teams(id) on delete set null;
    alter table tokens add foreign key (team_id) references teams(id) on delete cascade;

    -- The team's tree. Roots have parent_id null and one of the root types.
    create table folders (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      parent_id integer references folders(id),
      type text not null check (type in ('projects', 'ftpservers', 'calendars', 'settings', 'folders')),
      name text not null,
      created_at timestamptz not null default now()
    );
    create index folders_team on folders(team_id, parent_id);

    create table calendars (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      folder_id integer not null references folders(id),
      name text not null,
      refname text not null,
      type text not null default 'default',
      url text,
      created_at timestamptz not null default now(),
      unique (team_id, refname)
    );

    create table config_files (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      name text not null,
      content bytea not null,
      size integer not null,
      updated_at timestamptz not null default now(),
      unique (team_id, name)
    );
  `.execute(db);
}
