import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';

export const insertCommand = (
  db: Db,
  c: { teamId: number; userId: number; kind: string; tokenHash: string; payload: unknown },
) =>
  db
    .insertInto('commands')
    .values({
      team_id: c.teamId,
      user_id: c.userId,
      kind: c.kind,
      token_hash: c.tokenHash,
      payload: JSON.stringify(c.payload),
      state: null,
      detail: null,
      locked_until: null,
      finished_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

/** A command of this member: only who started it may read its state and answer. */
export const findCommand = (db: Db, member: { teamId: number; userId: number }, id: number) =>
  db
    .selectFrom('commands')
    .select(['id', 'token_hash', 'state', 'detail'])
    .where('team_id', '=', member.teamId)
    .where('user_id', '=', member.userId)
    .where('id', '=', id)
    .executeTakeFirst();

/** The kinds of a lane, as SQL: `kind in (slow kinds)` is true for the slow lane. */
const inLane = (column: ReturnType<typeof sql.ref>, slowKinds: readonly string[], slow: boolean) =>
  sql`(${column} in (${sql.join([...slowKinds])})) = ${slow}`;

/**
 * Takes one unfinished command of a lane whose lease is free, and leases it. Fair across teams,
 * as the job claim is across projects: the team with the fewest commands of the lane running
 * goes first, oldest first within a team, so one team's ten Tests do not make another team's
 * one wait behind them. A team with `perTeam` of the lane running already gets none more.
 */
export async function claimCommand(
  db: Db,
  leaseSeconds: number,
  lane: { slowKinds: readonly string[]; slow: boolean; perTeam?: number },
) {
  const result = await sql<{
    id: number;
    team_id: number;
    user_id: number;
    kind: string;
    payload: unknown;
    attempts: number;
  }>`
    with running as (
      select team_id, count(*) as n from commands
      where state is null and locked_until >= now() and ${inLane(sql.ref('kind'), lane.slowKinds, lane.slow)}
      group by team_id
    ), next as (
      select c.id from commands c
      left join running r on r.team_id = c.team_id
      where c.state is null and (c.locked_until is null or c.locked_until < now())
        and ${inLane(sql.ref('c.kind'), lane.slowKinds, lane.slow)}
        and coalesce(r.n, 0) < ${lane.perTeam ?? 2_147_483_647}
      order by coalesce(r.n, 0), c.id
      limit 1
      for update of c skip locked
    )
    update commands c set locked_until = now() + make_interval(secs => ${leaseSeconds}), attempts = c.attempts + 1
    from next where c.id = next.id
    returning c.id, c.team_id, c.user_id, c.kind, c.payload, c.attempts
  `.execute(db);
  return result.rows[0];
}

/** The commands of these kinds a member has waiting or running. */
export async function countUnfinishedCommands(
  db: Db,
  teamId: number,
  userId: number,
  kinds: readonly string[],
) {
  const row = await db
    .selectFrom('commands')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('state', 'is', null)
    .where('kind', 'in', [...kinds])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Serialises the queueing of one member's commands until the transaction ends (the limit check). */
export const lockMemberQueue = (db: Db, teamId: number, userId: number) =>
  sql`select pg_advisory_xact_lock(${teamId}::int, ${userId}::int)`.execute(db);

/** Removes finished commands older than `before`; how many. */
export async function deleteFinishedCommands(db: Db, before: Date) {
  const result = await db
    .deleteFrom('commands')
    .where('state', 'is not', null)
    .where('finished_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const finishCommand = (db: Db, id: number, state: 'ok' | 'error', detail: unknown) =>
  db
    .updateTable('commands')
    // The payload (perhaps a password, sealed) is not needed any more: only the answer stays.
    .set({
      state,
      detail: JSON.stringify(detail ?? null),
      payload: '{}',
      finished_at: new Date(),
      locked_until: null,
    })
    .where('id', '=', id)
    .where('state', 'is', null)
    .execute();
