import { type Kysely, sql } from 'kysely';

// Issue 12: a counter that every change of a table the calendar month statement reads advances
// (modules/calendar/month-cache.ts). nextval is outside transactions: it never waits, never
// deadlocks, and a rolled-back change only costs a needless cache miss. One statement-level
// trigger per table and kind of change (truncate included); cascaded deletes fire them too. On
// PostgreSQL the triggers exist as well (one schema) but the month cache is off there. Replaced
// by 0027's versions, which drops these triggers (by this list) and the sequence.
export const tables = [
  'calendar_entries',
  'calendars',
  'bookings',
  'calendar_entry_confirmations',
  'users',
  'team_members',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create sequence calendar_change_seq;
    create function calendar_changed() returns trigger language plpgsql as $$
    begin
      perform nextval('calendar_change_seq');
      return null;
    end $$;
  `.execute(db);
  for (const table of tables)
    await sql`
      create trigger ${sql.id(`${table}_calendar_changed`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function calendar_changed()
    `.execute(db);
}
