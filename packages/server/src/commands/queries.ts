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

export const findCommand = (db: Db, teamId: number, id: number) =>
  db
    .selectFrom('commands')
    .select(['id', 'token_hash', 'state', 'detail'])
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();

/** Takes one unfinished command whose lease is free, and leases it. */
export async function claimCommand(db: Db, leaseSeconds: number) {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('commands')
      .select(['id', 'team_id', 'user_id', 'kind', 'payload', 'attempts'])
      .where('state', 'is', null)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', new Date())]))
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!row) return undefined;
    await trx
      .updateTable('commands')
      .set({ locked_until: sql`now() + make_interval(secs => ${leaseSeconds})`, attempts: row.attempts + 1 })
      .where('id', '=', row.id)
      .execute();
    return { ...row, attempts: row.attempts + 1 };
  });
}

export const finishCommand = (db: Db, id: number, state: 'ok' | 'error', detail: unknown) =>
  db
    .updateTable('commands')
    .set({ state, detail: JSON.stringify(detail ?? null), finished_at: new Date(), locked_until: null })
    .where('id', '=', id)
    .where('state', 'is', null)
    .execute();
