import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

// SQL of event-aware stamping (issue 13): the project's setting and the booked events of the
// team's default calendar at a picture's capture time.

export const getEventStamping = async (db: Db, teamId: number, projectId: number) =>
  (
    await db
      .selectFrom('projects')
      .select('event_stamping')
      .where('team_id', '=', teamId)
      .where('id', '=', projectId)
      .executeTakeFirst()
  )?.event_stamping;

export const setEventStamping = (db: Db, teamId: number, projectId: number, on: boolean) =>
  db
    .updateTable('projects')
    .set({ event_stamping: on })
    .where('team_id', '=', teamId)
    .where('id', '=', projectId)
    .executeTakeFirst();

export interface BookedEvent {
  entryId: number;
  /** Names ("first last") of the photographers booked on it (bookings not canceled or rejected). */
  photographers: string[];
}

/** More would not narrow anything down: the step applies one event or none. */
const maxEvents = 20;

/**
 * Entries of the team's default calendar running at `at` (start <= at <= end; an all-day entry
 * lasts at least its day), not cancelled, with at least one photographer booked.
 */
export async function bookedEventsAt(db: Db, teamId: number, at: Date): Promise<BookedEvent[]> {
  const rows = await db
    .selectFrom('calendar_entries as e')
    .innerJoin('calendars as c', 'c.id', 'e.calendar_id')
    .innerJoin('bookings as b', 'b.entry_id', 'e.id')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .select([
      'e.id',
      sql<string[]>`array_agg(trim(u.first_name || ' ' || u.last_name) order by u.id)`.as('names'),
    ])
    .where('e.team_id', '=', teamId)
    .where('c.type', '=', 'default')
    .where('e.cancelled_at', 'is', null)
    .where('e.start_at', '<=', at)
    .where(
      sql<boolean>`greatest(e.end_at, e.start_at + case when e.all_day then interval '1 day' else interval '0 seconds' end) >= ${at}`,
    )
    .where('b.state', 'in', ['unset', 'accepted'])
    .groupBy('e.id')
    .orderBy('e.start_at')
    .orderBy('e.id')
    .limit(maxEvents)
    .execute();
  return rows.map((r) => ({ entryId: r.id, photographers: r.names }));
}
