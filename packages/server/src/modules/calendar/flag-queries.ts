import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

// SQL of a team's own event flags (issue 27 item 8): the table team_event_flags names the bits
// of calendar_entries.flags.

export interface FlagRow {
  bit: number;
  name: string;
  preset: string | null;
}

export const listFlags = (db: Db, teamId: number): Promise<FlagRow[]> =>
  db
    .selectFrom('team_event_flags')
    .select(['bit', 'name', 'preset'])
    .where('team_id', '=', teamId)
    .orderBy('bit')
    .execute();

/** The bits the team has flags for, as one mask. */
export const teamMask = async (db: Db, teamId: number) =>
  (await listFlags(db, teamId)).reduce((mask, flag) => mask | (1 << flag.bit), 0);

/** Per bit: how many of the team's entries have it set, and the first few (by start). */
export async function flagUse(db: Db, teamId: number, bits: readonly number[], sample: number) {
  if (bits.length === 0) return new Map<number, { count: number; entries: UseSample[] }>();
  const rows = await sql<{ bit: number; count: string; entries: UseSample[] | null }>`
    select b.bit, count(e.id) as count,
      (array_agg(json_build_object('id', e.id, 'summary', e.summary, 'startAt', e.start_at)
         order by e.start_at, e.id) filter (where e.id is not null))[1:${sample}] as entries
    from unnest(${sql.raw(`array[${bits.map(Number).join(',')}]`)}::int[]) as b(bit)
    left join calendar_entries e on e.team_id = ${teamId} and (e.flags & (1 << b.bit)) <> 0
    group by b.bit
  `.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.bit), { count: Number(r.count), entries: r.entries ?? [] }]));
}
export type UseSample = { id: number; summary: string; startAt: string };

export const insertFlag = (db: Db, teamId: number, bit: number, name: string, preset: string | null = null) =>
  db.insertInto('team_event_flags').values({ team_id: teamId, bit, name, preset }).execute();

/** Renaming makes a default flag the team's own: its name is shown as typed from then on. */
export const renameFlag = async (db: Db, teamId: number, bit: number, name: string) =>
  (
    await db
      .updateTable('team_event_flags')
      .set({ name, preset: null })
      .where('team_id', '=', teamId)
      .where('bit', '=', bit)
      .executeTakeFirst()
  ).numUpdatedRows > 0n;

export const deleteFlag = async (db: Db, teamId: number, bit: number) =>
  (
    await db
      .deleteFrom('team_event_flags')
      .where('team_id', '=', teamId)
      .where('bit', '=', bit)
      .executeTakeFirst()
  ).numDeletedRows > 0n;

/** Clears a bit on all the team's entries, so a flag added later on that bit starts unset. */
export const clearBit = (db: Db, teamId: number, bit: number) =>
  db
    .updateTable('calendar_entries')
    .set({ flags: sql`flags & ${~(1 << bit)}`, updated_at: sql`now()` })
    .where('team_id', '=', teamId)
    .where(sql<boolean>`(flags & ${1 << bit}) <> 0`)
    .execute();

/** The spec's list for a team that has no flags yet (a new team, at provisioning). */
export async function insertDefaultFlags(
  db: Db,
  teamId: number,
  defaults: ReadonlyArray<{ name: string; preset: string }>,
) {
  const existing = await db
    .selectFrom('team_event_flags')
    .select('bit')
    .where('team_id', '=', teamId)
    .limit(1)
    .executeTakeFirst();
  if (existing) return;
  await db
    .insertInto('team_event_flags')
    .values(defaults.map((flag, bit) => ({ team_id: teamId, bit, name: flag.name, preset: flag.preset })))
    .execute();
}
