import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { TokenKind } from '../../db/schema.ts';
import { membership } from '../teams/queries.ts';

export const findUserByEmail = (db: Db, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

export const findUserById = (db: Db, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertUser(
  db: Db,
  user: {
    email: string;
    passwordHash: string;
    firstName: string;
    lastName: string;
    language: string;
    timezone: string;
    verified: boolean;
  },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      email: user.email,
      password_hash: user.passwordHash,
      first_name: user.firstName,
      last_name: user.lastName,
      language: user.language,
      timezone: user.timezone,
      email_verified: user.verified,
      current_team_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function completeUser(
  db: Db,
  userId: number,
  user: {
    passwordHash: string;
    firstName: string;
    lastName: string;
    language: string;
    timezone: string;
    verified: boolean;
  },
) {
  await db
    .updateTable('users')
    .set({
      password_hash: user.passwordHash,
      first_name: user.firstName,
      last_name: user.lastName,
      language: user.language,
      timezone: user.timezone,
      email_verified: user.verified,
    })
    .where('id', '=', userId)
    .execute();
}

export const deleteUser = (db: Db, userId: number) =>
  db.deleteFrom('users').where('id', '=', userId).execute();

export const updateUserNames = (db: Db, userId: number, firstName: string, lastName: string) =>
  db
    .updateTable('users')
    .set({ first_name: firstName, last_name: lastName })
    .where('id', '=', userId)
    .execute();

export const setUserLanguage = (db: Db, userId: number, language: 'en' | 'de') =>
  db.updateTable('users').set({ language }).where('id', '=', userId).execute();

export const setEmailVerified = (db: Db, userId: number) =>
  db.updateTable('users').set({ email_verified: true }).where('id', '=', userId).execute();

export const markRegistrationCompleted = (db: Db, userId: number) =>
  db
    .updateTable('users')
    .set({ registration_completed: true })
    .where('id', '=', userId)
    .where('registration_completed', '=', false)
    .execute();

export const setPasswordHash = (db: Db, userId: number, passwordHash: string) =>
  db
    .updateTable('users')
    .set({ password_hash: passwordHash, email_verified: true })
    .where('id', '=', userId)
    .execute();

export const setCurrentTeam = (db: Db, userId: number, teamId: number) =>
  db.updateTable('users').set({ current_team_id: teamId }).where('id', '=', userId).execute();

export const insertSession = (
  db: Db,
  s: { idHash: string; userId: number; persistent: boolean; expiresAt: Date },
) =>
  db
    .insertInto('sessions')
    .values({ id_hash: s.idHash, user_id: s.userId, persistent: s.persistent, expires_at: s.expiresAt })
    .execute();

/**
 * The session's user and their membership in the team `teamUuid` (lower case; the membership's
 * columns are null when there is none): every request under /api/{teamUuid} needs both, and one
 * round trip to the database is cheaper than two (on a loaded machine each can wait for a CPU).
 */
export const findSessionUser = (db: Db, idHash: string, teamUuid?: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoinLateral(
      () =>
        membership(db)
          // No team: a uuid column never equals null, the membership stays empty.
          .where('teams.uuid', '=', teamUuid ?? null)
          .where('team_members.user_id', '=', sql.ref<number>('users.id'))
          .as('m'),
      (join) => join.onTrue(),
    )
    .selectAll('m')
    .select([
      'sessions.id_hash',
      'sessions.persistent',
      'sessions.expires_at',
      'users.id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.language',
      'users.current_team_id',
    ])
    .where('sessions.id_hash', '=', idHash)
    .where('sessions.expires_at', '>', new Date())
    .executeTakeFirst();

export const extendSession = (db: Db, idHash: string, expiresAt: Date) =>
  db.updateTable('sessions').set({ expires_at: expiresAt }).where('id_hash', '=', idHash).execute();

export const deleteSession = (db: Db, idHash: string) =>
  db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();

export const deleteUserSessions = (db: Db, userId: number) =>
  db.deleteFrom('sessions').where('user_id', '=', userId).execute();

export const insertToken = (
  db: Db,
  t: {
    kind: TokenKind;
    selector: string;
    tokenHash: string;
    email: string;
    userId: number | null;
    teamId: number | null;
    expiresAt: Date;
  },
) =>
  db
    .insertInto('tokens')
    .values({
      kind: t.kind,
      selector: t.selector,
      token_hash: t.tokenHash,
      email: t.email,
      user_id: t.userId,
      team_id: t.teamId,
      expires_at: t.expiresAt,
    })
    .execute();

/** An unused, unexpired token; locked so two requests cannot both use it. */
export const findUsableTokenForUpdate = (db: Db, kind: TokenKind, selector: string) =>
  db
    .selectFrom('tokens')
    .selectAll()
    .where('kind', '=', kind)
    .where('selector', '=', selector)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .forUpdate()
    .executeTakeFirst();

export const markTokenUsed = (db: Db, id: number) =>
  db.updateTable('tokens').set({ used_at: new Date() }).where('id', '=', id).execute();

export const listMemberships = (db: Db, userId: number) =>
  db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['teams.id', 'teams.uuid', 'teams.name', 'teams.ready'])
    // The owner's name, for members without rights who must ask for access (issue 16 item 10).
    .select((eb) =>
      eb
        .selectFrom('team_members as om')
        .innerJoin('groups as og', 'og.id', 'om.group_id')
        .innerJoin('users as ou', 'ou.id', 'om.user_id')
        .select(sql<string>`trim(ou.first_name || ' ' || ou.last_name)`.as('owner_name'))
        .where('om.team_id', '=', eb.ref('teams.id'))
        .where('og.name', '=', 'Owner')
        .orderBy('om.created_at')
        .limit(1)
        .as('owner_name'),
    )
    .where('team_members.user_id', '=', userId)
    .orderBy('team_members.created_at')
    .orderBy('teams.id')
    .execute();

/** Unused, unexpired invitations of an address to teams. */
export const findPendingInvitations = (db: Db, email: string) =>
  db
    .selectFrom('tokens')
    .select(['id', 'team_id'])
    .where('kind', '=', 'invite')
    .where('email', '=', email)
    .where('team_id', 'is not', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .execute();

export const markTokensUsed = (db: Db, ids: number[]) =>
  db.updateTable('tokens').set({ used_at: new Date() }).where('id', 'in', ids).execute();

/** Ends the outstanding tokens of one kind of a user (the verify mail of a sign-up taken over). */
export const revokeUserTokens = (db: Db, userId: number, kind: TokenKind) =>
  db
    .updateTable('tokens')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .execute();
