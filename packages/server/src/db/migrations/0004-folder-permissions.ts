import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Rights given on a folder to one user or one group; they hold for everything below it too.
    create table folder_permissions (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      folder_id integer not null references folders(id) on delete cascade,
      user_id integer references users(id) on delete cascade,
      group_id integer references groups(id) on delete cascade,
      permissions text[] not null,
      check ((user_id is null) <> (group_id is null))
    );
    create unique index folder_permissions_user on folder_permissions(folder_id, user_id) where user_id is not null;
    create unique index folder_permissions_group on folder_permissions(folder_id, group_id) where group_id is not null;
    create index folder_permissions_team on folder_permissions(team_id);
  `.execute(db);
}
