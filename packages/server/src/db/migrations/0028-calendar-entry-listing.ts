import { type Kysely, sql } from 'kysely';

// Issue 12: what the month listing reads of an entry is kept ready in the entry's row, as JSON
// text written when it changes, so a listing that holds none of a month's entries (a cold cache:
// after a restart, a month nobody opened) copies 200 short texts instead of building them from
// columns and looking up every booking: on the bench the month statement went from 9.3 to 3.3 ms
// (PGlite CPU 8.2 -> 2.5 ms). Kept by triggers, so every writer (the API, the external calendars'
// refresh, SQL by hand) keeps them right:
// - `listed`: the entry's own columns as a JSON array, in the order `listedEntry` reads it
//   (modules/calendar/month-queries.ts), written before every insert and update of the row;
// - `listed_bookings` / `listed_confirmers`: its bookings as arrays by id and who confirmed it,
//   rewritten by the statement triggers of 0027 that already advance the entry's version. Those
//   lock the entries first and read the bookings in a later statement: on PostgreSQL (read
//   committed) a concurrent writer's bookings are then committed and seen, not lost.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table calendar_entries
      add column listed text,
      add column listed_bookings text,
      add column listed_confirmers text;

    create function calendar_entry_listed() returns trigger language plpgsql as $$
    begin
      new.listed := json_build_array(
        new.id, new.calendar_id, new.start_at, new.end_at, new.all_day, new.summary, new.description,
        new.category, new.subcategory, new.scene, new.location, new.city, new.state, new.country,
        new.team1, new.team2, new.urgency, new.flags, new.cancelled_at, new.source_entry_id,
        new.source_status, new.external_uid)::text;
      return new;
    end $$;
    create trigger calendar_entries_listed before insert or update on calendar_entries
      for each row execute function calendar_entry_listed();

    -- The entries' bookings and confirmations, written again (the update advances their versions).
    create function calendar_entries_relist(ids int[]) returns void language plpgsql as $$
    begin
      perform 1 from calendar_entries where id = any(ids) order by id for update;
      update calendar_entries e set
        listed_bookings = (
          select json_agg(json_build_array(
            b.id, b.user_id, b.state, b.accreditation, b.answer, b.suggested, b.updated_at) order by b.id)::text
          from bookings b where b.entry_id = e.id),
        listed_confirmers = (
          select json_agg(x.user_id order by x.user_id)::text
          from calendar_entry_confirmations x where x.entry_id = e.id)
      where e.id = any(ids);
    end $$;

    create or replace function calendar_entries_touched() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        perform calendar_entries_relist(array(select entry_id from new_rows));
      elsif tg_op = 'DELETE' then
        perform calendar_entries_relist(array(select entry_id from old_rows));
      else
        perform calendar_entries_relist(array(select entry_id from new_rows union select entry_id from old_rows));
      end if;
      return null;
    end $$;

    -- Truncating bookings or confirmations (never done by the app) empties every entry's list.
    create function calendar_entries_all_relisted() returns trigger language plpgsql as $$
    begin
      perform calendar_entries_relist(array(select id from calendar_entries));
      return null;
    end $$;
    create trigger bookings_truncated_relist after truncate on bookings
      for each statement execute function calendar_entries_all_relisted();
    create trigger calendar_entry_confirmations_truncated_relist after truncate on calendar_entry_confirmations
      for each statement execute function calendar_entries_all_relisted();

    select calendar_entries_relist(array(select id from calendar_entries));
    alter table calendar_entries alter column listed set not null;
  `.execute(db);
}
