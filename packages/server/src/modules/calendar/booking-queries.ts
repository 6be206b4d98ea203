import type { Accreditation, BookingAnswer, BookingState } from '@photorelay/contract/calendar';
import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

// SQL of bookings, their history and invitations.

export interface BookingRecord {
  id: number;
  entryId: number;
  userId: number;
  fullname: string;
  email: string;
  language: string;
  accreditationNumber: string | null;
  state: BookingState;
  accreditation: Accreditation;
  answer: BookingAnswer;
  suggested: number;
  updatedAt: Date;
}

/** A booking as the listing shows it (no mail address or language). */
export type ListedBooking = Omit<BookingRecord, 'email' | 'language'>;

export const bookingColumns = [
  'b.id',
  'b.entry_id',
  'b.user_id',
  'u.first_name',
  'u.last_name',
  'u.email',
  'u.language',
  'm.accreditation_number',
  'b.state',
  'b.accreditation',
  'b.answer',
  'b.suggested',
  'b.updated_at',
] as const;

export const selectBookings = (db: Db, teamId: number) =>
  db
    .selectFrom('bookings as b')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .leftJoin('team_members as m', (j) =>
      j.onRef('m.team_id', '=', 'b.team_id').onRef('m.user_id', '=', 'b.user_id'),
    )
    .select(bookingColumns)
    .where('b.team_id', '=', teamId);

/** How a booked person is named: first and last name, else their address. */
export const bookedName = (firstName: string, lastName: string, email: string) =>
  `${firstName} ${lastName}`.trim() || email;

export type BookingRow = Awaited<ReturnType<ReturnType<typeof selectBookings>['executeTakeFirstOrThrow']>>;
export const bookingOf = (r: BookingRow): BookingRecord => ({
  id: r.id,
  entryId: r.entry_id,
  userId: r.user_id,
  fullname: bookedName(r.first_name, r.last_name, r.email),
  email: r.email,
  language: r.language,
  accreditationNumber: r.accreditation_number ?? null,
  state: r.state,
  accreditation: r.accreditation,
  answer: r.answer,
  suggested: r.suggested,
  updatedAt: new Date(r.updated_at),
});

/** Bookings of the given entries; `userId` limits them to that person's own. */
export const listBookings = async (db: Db, teamId: number, entryIds: number[], userId?: number) => {
  if (entryIds.length === 0) return [];
  let query = selectBookings(db, teamId).where('b.entry_id', 'in', entryIds);
  if (userId !== undefined) query = query.where('b.user_id', '=', userId);
  return (await query.orderBy('b.entry_id').orderBy('b.id').execute()).map(bookingOf);
};

export const findBooking = async (db: Db, teamId: number, entryId: number, userId: number) => {
  const row = await selectBookings(db, teamId)
    .where('b.entry_id', '=', entryId)
    .where('b.user_id', '=', userId)
    .executeTakeFirst();
  return row && bookingOf(row);
};

/** Locks the booking row for the rest of the transaction: concurrent changes queue behind it. */
export const lockBooking = (db: Db, teamId: number, entryId: number, userId: number) =>
  db
    .selectFrom('bookings')
    .select(['id', 'state', 'accreditation', 'answer', 'suggested'])
    .where('team_id', '=', teamId)
    .where('entry_id', '=', entryId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();

/** The booking of `userId` on `entryId`, created as 'unset' when there is none (one row per pair). */
export const ensureBooking = async (db: Db, teamId: number, entryId: number, userId: number) => {
  await db
    .insertInto('bookings')
    .values({ team_id: teamId, entry_id: entryId, user_id: userId })
    .onConflict((oc) => oc.columns(['entry_id', 'user_id']).doNothing())
    .execute();
  const row = await lockBooking(db, teamId, entryId, userId);
  if (!row) throw new Error('booking vanished inside its own transaction');
  return row;
};

export const updateBooking = (
  db: Db,
  id: number,
  set: Partial<{
    state: BookingState;
    accreditation: Accreditation;
    answer: BookingAnswer;
    suggested: number;
  }>,
) =>
  db
    .updateTable('bookings')
    .set({ ...set, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();

export interface HistoryChange {
  field: 'bookingState' | 'accreditation' | 'answer' | 'suggested';
  from: string | null;
  to: string | null;
}

export const insertHistory = async (
  db: Db,
  bookingId: number,
  changedBy: number,
  changes: HistoryChange[],
) => {
  if (changes.length === 0) return;
  await db
    .insertInto('booking_history')
    .values(
      changes.map((c) => ({
        booking_id: bookingId,
        changed_by: changedBy,
        field: c.field,
        from_value: c.from,
        to_value: c.to,
      })),
    )
    .execute();
};

export const listHistory = async (db: Db, teamId: number, entryId: number) => {
  const rows = await db
    .selectFrom('booking_history as h')
    .innerJoin('bookings as b', 'b.id', 'h.booking_id')
    .leftJoin('users as u', 'u.id', 'h.changed_by')
    .select([
      'h.booking_id',
      'b.user_id',
      'h.changed_by',
      'u.first_name',
      'u.last_name',
      'h.changed_at',
      'h.field',
      'h.from_value',
      'h.to_value',
    ])
    .where('b.team_id', '=', teamId)
    .where('b.entry_id', '=', entryId)
    .orderBy('h.id')
    .execute();
  return rows.map((r) => ({
    bookingId: r.booking_id,
    userId: r.user_id,
    changedBy: r.changed_by,
    changedByName: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim(),
    changedAt: new Date(r.changed_at),
    field: r.field,
    from: r.from_value,
    to: r.to_value,
  }));
};

/** A person's own bookings on entries starting at or after `from`, earliest first. */
export const listOwnBookingEntryIds = async (db: Db, teamId: number, userId: number, from: Date) =>
  (
    await db
      .selectFrom('bookings as b')
      .innerJoin('calendar_entries as e', 'e.id', 'b.entry_id')
      .select('e.id')
      .where('b.team_id', '=', teamId)
      .where('b.user_id', '=', userId)
      .where('e.start_at', '>=', from)
      .orderBy('e.start_at')
      .orderBy('e.id')
      .limit(500)
      .execute()
  ).map((r) => r.id);

// ---- invitations ----

export const insertInvitation = (
  db: Db,
  bookingId: number,
  selector: string,
  tokenHash: string,
  expiresAt: Date,
) =>
  db
    .insertInto('booking_invitations')
    .values({ booking_id: bookingId, selector, token_hash: tokenHash, expires_at: expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

/** An unexpired invitation by selector, with the booking and team it belongs to. */
export const findInvitation = (db: Db, selector: string) =>
  db
    .selectFrom('booking_invitations as i')
    .innerJoin('bookings as b', 'b.id', 'i.booking_id')
    .innerJoin('teams as t', 't.id', 'b.team_id')
    .select([
      'i.id',
      'i.token_hash',
      'i.used_at',
      'b.id as booking_id',
      'b.entry_id',
      'b.user_id',
      'b.team_id',
      't.uuid as team_uuid',
      't.name as team_name',
    ])
    .where('i.selector', '=', selector)
    .where('i.expires_at', '>', new Date())
    .executeTakeFirst();

export const markInvitationUsed = (db: Db, id: number) =>
  db.updateTable('booking_invitations').set({ used_at: sql`now()` }).where('id', '=', id).execute();

export const findUserLanguage = async (db: Db, userId: number) =>
  (await db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst())?.language;

/** An unexpired invitation by id (a calendar app's answer names it by its reply address), with whom it was for. */
export const findInvitationById = (db: Db, id: number) =>
  db
    .selectFrom('booking_invitations as i')
    .innerJoin('bookings as b', 'b.id', 'i.booking_id')
    .innerJoin('teams as t', 't.id', 'b.team_id')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .select(['i.id', 'i.used_at', 'b.entry_id', 'b.user_id', 'u.email', 't.uuid as team_uuid'])
    .where('i.id', '=', id)
    .where('i.expires_at', '>', new Date())
    .executeTakeFirst();

/** Per booking of the entry that was ever invited: its newest invitation's id (expired ones too). */
export const listNewestInvitationIds = async (db: Db, teamId: number, entryId: number) => {
  const rows = await db
    .selectFrom('booking_invitations as i')
    .innerJoin('bookings as b', 'b.id', 'i.booking_id')
    .select(['b.id as booking_id', sql<number>`max(i.id)`.as('invitation_id')])
    .where('b.team_id', '=', teamId)
    .where('b.entry_id', '=', entryId)
    .groupBy('b.id')
    .execute();
  return new Map(rows.map((r) => [r.booking_id, Number(r.invitation_id)]));
};
