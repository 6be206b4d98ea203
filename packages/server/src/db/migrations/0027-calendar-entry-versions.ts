import { type Kysely, sql } from 'kysely';
import { tables as counted } from './0026-calendar-change-counter.ts';

// Issue 12: versions for the calendar's entry cache (modules/calendar/month-cache.ts), replacing
// 0026's one counter. Each entry's `version` advances in the same transaction as every change of
// what the listing shows of it: the entry row itself, its bookings and its confirmations. The
// team's `calendar_shared_version` advances when something entries show but do not own changes:
// a booked person's name or e-mail, an accreditation number, a calendar's type. The listing reads
// the versions in its own snapshot, so the cache is exact on PostgreSQL as well: two writers of
// one entry take its row lock one after the other, so one version means one content. Bookings
// and confirmations touch their entries by statement (transition tables): a bulk insert updates
// each entry once.

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of counted)
    await sql`drop trigger ${sql.id(`${table}_calendar_changed`)} on ${sql.table(table)}`.execute(db);
  await sql`
    drop function calendar_changed();
    drop sequence calendar_change_seq;

    alter table calendar_entries add column version bigint not null default 0;
    alter table teams add column calendar_shared_version bigint not null default 0;

    create function calendar_entry_version() returns trigger language plpgsql as $$
    begin
      new.version := old.version + 1;
      return new;
    end $$;
    create trigger calendar_entries_version before update on calendar_entries
      for each row execute function calendar_entry_version();

    -- Bookings and confirmations: the entries whose rows were inserted, changed or deleted.
    create function calendar_entries_touched() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update calendar_entries set version = version + 1 where id in (select entry_id from new_rows);
      elsif tg_op = 'DELETE' then
        update calendar_entries set version = version + 1 where id in (select entry_id from old_rows);
      else
        update calendar_entries set version = version + 1
        where id in (select entry_id from new_rows union select entry_id from old_rows);
      end if;
      return null;
    end $$;

    -- A booked person's name or accreditation number, a calendar's type: the team (a user: every
    -- team they belong to). Row triggers, as only some columns matter: rare, small writes.
    create function calendar_team_touched() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'users' then
        update teams set calendar_shared_version = calendar_shared_version + 1
        where id in (select team_id from team_members where user_id = new.id);
      elsif tg_op = 'DELETE' then
        update teams set calendar_shared_version = calendar_shared_version + 1 where id = old.team_id;
      else
        update teams set calendar_shared_version = calendar_shared_version + 1 where id = new.team_id;
      end if;
      return null;
    end $$;

    -- Truncate (never done by the app) has no rows to name: every team's cache starts over.
    create function calendar_all_touched() returns trigger language plpgsql as $$
    begin
      update teams set calendar_shared_version = calendar_shared_version + 1;
      return null;
    end $$;
  `.execute(db);
  for (const table of ['bookings', 'calendar_entry_confirmations']) {
    await sql`
      create trigger ${sql.id(`${table}_inserted_touch`)} after insert on ${sql.table(table)}
        referencing new table as new_rows
        for each statement execute function calendar_entries_touched();
      create trigger ${sql.id(`${table}_updated_touch`)} after update on ${sql.table(table)}
        referencing new table as new_rows old table as old_rows
        for each statement execute function calendar_entries_touched();
      create trigger ${sql.id(`${table}_deleted_touch`)} after delete on ${sql.table(table)}
        referencing old table as old_rows
        for each statement execute function calendar_entries_touched();
    `.execute(db);
  }
  await sql`
    create trigger team_members_touch after insert or delete on team_members
      for each row execute function calendar_team_touched();
    create trigger team_members_number_touch after update on team_members
      for each row when (old.accreditation_number is distinct from new.accreditation_number)
      execute function calendar_team_touched();
    create trigger calendars_type_touch after update on calendars
      for each row when (old.type is distinct from new.type) execute function calendar_team_touched();
    create trigger users_name_touch after update on users
      for each row when (
        (old.first_name, old.last_name, old.email) is distinct from (new.first_name, new.last_name, new.email)
      ) execute function calendar_team_touched();
  `.execute(db);
  for (const table of ['bookings', 'calendar_entry_confirmations', 'team_members', 'calendars'])
    await sql`
      create trigger ${sql.id(`${table}_truncated_touch`)} after truncate on ${sql.table(table)}
        for each statement execute function calendar_all_touched();
    `.execute(db);
}
