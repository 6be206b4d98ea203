import type { Db } from '../../db/kysely.ts';

// SQL of the per-member iCalendar feed: its secret, and the entries it lists.

export const findFeedToken = (db: Db, teamId: number, userId: number) =>
  db
    .selectFrom('calendar_feed_tokens')
    .select(['selector', 'token_sealed'])
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
    .then((r) => r && { selector: r.selector, sealed: r.token_sealed });

export const findFeedBySelector = (db: Db, selector: string) =>
  db
    .selectFrom('calendar_feed_tokens as f')
    .innerJoin('teams as t', 't.id', 'f.team_id')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['f.team_id', 'f.user_id', 'f.token_hash', 't.name', 't.time_zone', 'u.language'])
    .where('f.selector', '=', selector)
    .executeTakeFirst()
    .then(
      (r) =>
        r && {
          teamId: r.team_id,
          userId: r.user_id,
          tokenHash: r.token_hash,
          teamName: r.name,
          zone: r.time_zone,
          language: r.language,
        },
    );

/** A new secret replaces the old one (the old URL stops working). */
export const replaceFeedToken = (
  db: Db,
  t: { teamId: number; userId: number; selector: string; tokenHash: string; sealed: string },
) =>
  db
    .insertInto('calendar_feed_tokens')
    .values({
      team_id: t.teamId,
      user_id: t.userId,
      selector: t.selector,
      token_hash: t.tokenHash,
      token_sealed: t.sealed,
    })
    .onConflict((oc) =>
      oc.columns(['team_id', 'user_id']).doUpdateSet({
        selector: t.selector,
        token_hash: t.tokenHash,
        token_sealed: t.sealed,
      }),
    )
    .execute();

export const deleteFeedToken = (db: Db, teamId: number, userId: number) =>
  db.deleteFrom('calendar_feed_tokens').where('team_id', '=', teamId).where('user_id', '=', userId).execute();

export interface FeedEntryRecord {
  id: number;
  start: Date;
  end: Date;
  allDay: boolean;
  summary: string;
  description: string;
  location: string;
  city: string;
  country: string;
  category: string;
  cancelled: boolean;
  updatedAt: Date;
  bookingState: string | null;
  accreditation: string | null;
}

/** Default-calendar entries in [from, to): all of them (`all`), or only those the user is booked on. */
export const listFeedEntries = async (
  db: Db,
  f: { teamId: number; userId: number; from: Date; to: Date; all: boolean; limit: number },
): Promise<FeedEntryRecord[]> => {
  let query = db
    .selectFrom('calendar_entries as e')
    .innerJoin('calendars as c', 'c.id', 'e.calendar_id')
    .leftJoin('bookings as b', (join) => join.onRef('b.entry_id', '=', 'e.id').on('b.user_id', '=', f.userId))
    .select([
      'e.id',
      'e.start_at',
      'e.end_at',
      'e.all_day',
      'e.summary',
      'e.description',
      'e.location',
      'e.city',
      'e.country',
      'e.category',
      'e.cancelled_at',
      'e.updated_at',
      'b.state',
      'b.accreditation',
    ])
    .where('e.team_id', '=', f.teamId)
    .where('c.type', '=', 'default')
    .where('e.start_at', '>=', f.from)
    .where('e.start_at', '<', f.to);
  if (!f.all) query = query.where('b.id', 'is not', null);
  const rows = await query.orderBy('e.start_at').orderBy('e.id').limit(f.limit).execute();
  return rows.map((r) => ({
    id: r.id,
    start: r.start_at,
    end: r.end_at,
    allDay: r.all_day,
    summary: r.summary,
    description: r.description,
    location: r.location,
    city: r.city,
    country: r.country,
    category: r.category,
    cancelled: r.cancelled_at !== null,
    updatedAt: r.updated_at,
    bookingState: r.state,
    accreditation: r.accreditation,
  }));
};
