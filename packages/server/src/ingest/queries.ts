import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';
import type { LoginOutcome } from './login-throttle.ts';

// What the ingest servers read and write: a project's uploads as a camera sees them, the folders
// cameras made, and the connection log.

/** LIKE treats % _ and \ specially; camera file names may contain them. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The newest upload at `path` (a camera may send one name several times). */
export const findLatestUpload = (db: Db, projectId: number, path: string) =>
  db
    .selectFrom('uploads')
    .select(['id', 'size', 'received_at', 'blob_key', 'processed_blob_key'])
    .where('project_id', '=', projectId)
    .where('path', '=', path)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/** True when a delivery of the upload has started or finished. */
export const hasStartedDelivery = async (db: Db, uploadId: number) =>
  (await db
    .selectFrom('jobs')
    .select('id')
    .where('upload_id', '=', uploadId)
    .where('state', 'in', ['running', 'succeeded'])
    .limit(1)
    .executeTakeFirst()) !== undefined;

/** Uploads of the last `days` under `prefix` ('' or 'dir/'), newest first. */
export const listRecentUploads = (db: Db, projectId: number, prefix: string, days: number) =>
  db
    .selectFrom('uploads')
    .select(['path', 'size', 'received_at'])
    .where('project_id', '=', projectId)
    .where('received_at', '>', sql<Date>`now() - make_interval(days => ${days})`)
    .where('path', 'like', `${escapeLike(prefix)}%`)
    .orderBy('id', 'desc')
    .limit(5000)
    .execute();

/** Folders made by cameras under `prefix` ('' or 'dir/'). */
export const listDirectories = (db: Db, projectId: number, prefix: string) =>
  db
    .selectFrom('ingest_directories')
    .select(['path', 'created_at'])
    .where('project_id', '=', projectId)
    .where('path', 'like', `${escapeLike(prefix)}%`)
    .execute();

export const insertDirectories = (db: Db, projectId: number, paths: string[]) =>
  db
    .insertInto('ingest_directories')
    .values(paths.map((path) => ({ project_id: projectId, path })))
    .onConflict((oc) => oc.columns(['project_id', 'path']).doNothing())
    .execute();

export const findDirectory = (db: Db, projectId: number, path: string) =>
  db
    .selectFrom('ingest_directories')
    .select('created_at')
    .where('project_id', '=', projectId)
    .where('path', '=', path)
    .executeTakeFirst();

/** Any upload inside folder `path` (a folder exists while it holds files). */
export const findUploadInside = (db: Db, projectId: number, path: string) =>
  db
    .selectFrom('uploads')
    .select('received_at')
    .where('project_id', '=', projectId)
    .where('path', 'like', `${escapeLike(path)}/%`)
    .limit(1)
    .executeTakeFirst();

export const deleteUpload = (db: Db, uploadId: number) =>
  db.deleteFrom('uploads').where('id', '=', uploadId).execute();

export const renameUpload = (db: Db, uploadId: number, path: string) =>
  db
    .updateTable('uploads')
    .set({ path, filename: path.split('/').pop() ?? path })
    .where('id', '=', uploadId)
    .execute();

export interface IngestSessionRow {
  project_id: number;
  username: string | null;
  protocol: string;
  tls: boolean;
  remote_address: string;
  login_result: string | null;
  entries: string;
  started_at: Date;
  ended_at: Date;
}

/**
 * Records one connection and keeps only the project's newest `keep`, in one statement. A project
 * deleted while a camera was still connected gets no log (and no error): its logs went with it.
 */
export async function insertIngestSession(db: Db, row: IngestSessionRow, keep: number): Promise<void> {
  // The delete sees the rows from before the insert, so it keeps the newest keep - 1 of them.
  await sql`
    with added as (
      insert into ingest_sessions (project_id, username, protocol, tls, remote_address, login_result, entries, started_at, ended_at)
      select ${row.project_id}, ${row.username}, ${row.protocol}, ${row.tls}, ${row.remote_address},
             ${row.login_result}, ${row.entries}::jsonb, ${row.started_at}, ${row.ended_at}
      where exists (select 1 from projects where id = ${row.project_id})
      returning id
    )
    delete from ingest_sessions where project_id = ${row.project_id} and exists (select 1 from added) and id <= (
      select id from ingest_sessions where project_id = ${row.project_id} order by id desc offset ${keep - 1} limit 1)
  `.execute(db);
}

/** Distinct user names with a confirmed wrong password from `address` since `since`. */
/** Distinct user names with a failure at `address` since `since`: names of accounts, and unknown names. */
export async function countFailingNames(
  db: Db,
  address: string,
  since: Date,
): Promise<{ known: number; unknown: number }> {
  const row = await db
    .selectFrom('ingest_login_failures')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('unknown_name', '=', false).as('known'),
      eb.fn.countAll<string>().filterWhere('unknown_name', '=', true).as('unknown'),
    ])
    .where('address', '=', address)
    .where('failures', '>', 0)
    .where('last_attempt', '>=', since)
    .executeTakeFirst();
  return { known: Number(row?.known ?? 0), unknown: Number(row?.unknown ?? 0) };
}

/**
 * Counts one login attempt of (address, username) in one statement, so concurrent attempts each
 * get their own number; a blocked pair stays as it is. Returns the attempts in the window (this one
 * included) and the block's end.
 */
export async function countLoginAttempt(
  db: Db,
  address: string,
  username: string,
  p: { now: Date; windowStart: Date; blockEnd: Date; slowAfter: number; blockAfter: number },
): Promise<{ attempts: number; blockedUntil: Date | null }> {
  const blocked = sql`t.blocked_until > ${p.now}::timestamptz`;
  // A pair last tried before the window starts over; a served block starts over slowed.
  const next = sql`(case when t.last_attempt < ${p.windowStart}::timestamptz then 1
    when t.blocked_until is not null then ${p.slowAfter}::int + 1 else t.attempts + 1 end)`;
  const { rows } = await sql<{ attempts: number; blocked_until: Date | null }>`
    insert into ingest_login_failures as t (address, username, attempts, failures, last_attempt, blocked_until)
    values (${address}, ${username}, 1, 0, ${p.now}::timestamptz, null)
    on conflict (address, username) do update set
      attempts = case when ${blocked} then t.attempts else ${next} end,
      failures = case when ${blocked} then t.failures
                      when t.last_attempt < ${p.windowStart}::timestamptz then 0 else t.failures end,
      last_attempt = case when ${blocked} then t.last_attempt else ${p.now}::timestamptz end,
      blocked_until = case when ${blocked} then t.blocked_until
                           when ${next} > ${p.blockAfter}::int then ${p.blockEnd}::timestamptz end
    returning attempts, blocked_until
  `.execute(db);
  const row = rows[0];
  return {
    attempts: row?.attempts ?? 1,
    blockedUntil: row?.blocked_until ? new Date(row.blocked_until) : null,
  };
}

/**
 * After the password check: a success clears the pair, a failure is confirmed (`unknown`: on a
 * name no account has), an error is taken back.
 */
export async function settleLoginAttempt(
  db: Db,
  address: string,
  username: string,
  outcome: LoginOutcome,
): Promise<void> {
  const pair = db
    .updateTable('ingest_login_failures')
    .where('address', '=', address)
    .where('username', '=', username);
  if (outcome === 'ok')
    await db
      .deleteFrom('ingest_login_failures')
      .where('address', '=', address)
      .where('username', '=', username)
      .execute();
  else if (outcome === 'failed' || outcome === 'unknown')
    await pair
      .set((eb) => ({ failures: eb('failures', '+', 1), unknown_name: outcome === 'unknown' }))
      .execute();
  else await pair.set({ attempts: sql`greatest(attempts - 1, 0)` }).execute();
}

/** Forgets pairs last tried before `before` that are not blocked. */
export const purgeLoginFailures = (db: Db, before: Date, now: Date) =>
  db
    .deleteFrom('ingest_login_failures')
    .where('last_attempt', '<', before)
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', now)]))
    .execute();
