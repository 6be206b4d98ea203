import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';
import type { FolderType, GroupName } from '../../db/schema.ts';

const groupDefinitions: Array<{ name: GroupName; hasAll: boolean }> = [
  { name: 'Owner', hasAll: true },
  { name: 'Operator', hasAll: true },
  { name: 'Photographer', hasAll: false },
];

/** A team with its three groups; returns the ids of both. */
export async function insertTeamWithGroups(db: Db, name: string) {
  const team = await db
    .insertInto('teams')
    .values({ name })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
  const groups = await db
    .insertInto('groups')
    .values(groupDefinitions.map((g) => ({ team_id: team.id, name: g.name, has_all_permissions: g.hasAll })))
    .returning(['id', 'name'])
    .execute();
  const groupId = (name: GroupName) => groups.find((g) => g.name === name)?.id as number;
  return { teamId: team.id, teamUuid: team.uuid, groupId };
}

export const findGroupByName = (db: Db, teamId: number, name: GroupName) =>
  db
    .selectFrom('groups')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();

export const insertMember = (db: Db, teamId: number, userId: number, groupId: number) =>
  db
    .insertInto('team_members')
    .values({ team_id: teamId, user_id: userId, group_id: groupId, accreditation_number: null })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();

export const findTeamById = (db: Db, teamId: number) =>
  db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();

/** A membership with the team and the group that decides the member's rights. */
export const membership = (db: Db) =>
  db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .innerJoin('groups', 'groups.id', 'team_members.group_id')
    .select([
      'teams.id as teamId',
      'teams.uuid as teamUuid',
      'teams.name as teamName',
      'teams.ready as teamReady',
      'teams.time_zone as teamTimeZone',
      'team_members.user_id as userId',
      'groups.id as groupId',
      'groups.name as groupName',
      'groups.has_all_permissions as hasAllPermissions',
    ]);

/** The caller's membership in a team given by uuid. */
export const findMembership = (db: Db, teamUuid: string, userId: number) =>
  membership(db)
    .where('teams.uuid', '=', teamUuid)
    .where('team_members.user_id', '=', userId)
    .executeTakeFirst();

/** A membership by ids, for work that runs outside a request (async commands). */
export const findMembershipById = (db: Db, teamId: number, userId: number) =>
  membership(db).where('teams.id', '=', teamId).where('team_members.user_id', '=', userId).executeTakeFirst();

export const listMemberGroups = (db: Db, teamId: number, userId: number) =>
  db
    .selectFrom('team_members')
    .innerJoin('groups', 'groups.id', 'team_members.group_id')
    .select(['groups.id', 'groups.name', 'groups.has_all_permissions'])
    .where('team_members.team_id', '=', teamId)
    .where('team_members.user_id', '=', userId)
    .execute();

/** Claims one team still waiting for provisioning; SKIP LOCKED lets several workers share the work. */
export const claimUnreadyTeam = (db: Db) =>
  db
    .selectFrom('teams')
    .select(['id', 'name'])
    .where('ready', '=', false)
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();

export async function insertRootFolders(db: Db, teamId: number) {
  const roots: Array<{ type: FolderType; name: string }> = [
    { type: 'projects', name: 'projects' },
    { type: 'ftpservers', name: 'ftpservers' },
    { type: 'calendars', name: 'calendars' },
    { type: 'settings', name: 'settings' },
  ];
  return db
    .insertInto('folders')
    .values(roots.map((r) => ({ team_id: teamId, parent_id: null, type: r.type, name: r.name })))
    .returning(['id', 'type'])
    .execute();
}

export const hasRootFolders = async (db: Db, teamId: number) =>
  (
    await db
      .selectFrom('folders')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('team_id', '=', teamId)
      .where('parent_id', 'is', null)
      .executeTakeFirstOrThrow()
  ).n > 0;

export const insertCalendar = (
  db: Db,
  c: { teamId: number; folderId: number; name: string; refname: string },
) =>
  db
    .insertInto('calendars')
    .values({
      team_id: c.teamId,
      folder_id: c.folderId,
      name: c.name,
      refname: c.refname,
      type: 'default',
      url: null,
    })
    .onConflict((oc) => oc.columns(['team_id', 'refname']).doNothing())
    .execute();

export const insertConfigFileIfMissing = (db: Db, teamId: number, name: string, content: Buffer) =>
  db
    .insertInto('config_files')
    .values({ team_id: teamId, name, content, size: content.length })
    .onConflict((oc) => oc.columns(['team_id', 'name']).doNothing())
    .execute();

export const markTeamReady = (db: Db, teamId: number) =>
  db.updateTable('teams').set({ ready: true }).where('id', '=', teamId).execute();

export const findMember = (db: Db, teamId: number, userId: number) =>
  db
    .selectFrom('team_members')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

export const findGroup = (db: Db, teamId: number, groupId: number) =>
  db
    .selectFrom('groups')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', groupId)
    .executeTakeFirst();

export const listTeamMembers = (db: Db, teamId: number) =>
  db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .innerJoin('groups', 'groups.id', 'team_members.group_id')
    .select([
      'users.id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.email_verified',
      'team_members.accreditation_number',
      'groups.id as group_id',
      'groups.name as group_name',
      'groups.has_all_permissions',
    ])
    .where('team_members.team_id', '=', teamId)
    .orderBy('users.email')
    .execute();

export const listGroups = (db: Db, teamId: number) =>
  db.selectFrom('groups').selectAll().where('team_id', '=', teamId).orderBy('id').execute();

export const findMemberWithGroup = (db: Db, teamId: number, userId: number) =>
  db
    .selectFrom('team_members')
    .innerJoin('groups', 'groups.id', 'team_members.group_id')
    .select(['team_members.user_id', 'groups.name as group_name'])
    .where('team_members.team_id', '=', teamId)
    .where('team_members.user_id', '=', userId)
    .executeTakeFirst();

export const setMemberGroup = (db: Db, teamId: number, userId: number, groupId: number) =>
  db
    .updateTable('team_members')
    .set({ group_id: groupId })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();

export const setAccreditationNumber = (db: Db, teamId: number, userId: number, value: string | null) =>
  db
    .updateTable('team_members')
    .set({ accreditation_number: value })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();

export const deleteMember = (db: Db, teamId: number, userId: number) =>
  db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).execute();

/** Invitations the team sent since `since` (used and expired ones count too). */
export async function countInvitationsSince(db: Db, teamId: number, since: Date): Promise<number> {
  const row = await db
    .selectFrom('tokens')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('kind', '=', 'invite')
    .where('team_id', '=', teamId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Accounts with an open invitation to the team that have not joined it (yet). */
export const listPendingInvitees = (db: Db, teamId: number) =>
  db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select(['users.id', 'users.email'])
    .distinct()
    .where('tokens.kind', '=', 'invite')
    .where('tokens.team_id', '=', teamId)
    .where('tokens.used_at', 'is', null)
    .where('tokens.expires_at', '>', new Date())
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('team_members')
            .select('team_members.user_id')
            .where('team_members.team_id', '=', teamId)
            .whereRef('team_members.user_id', '=', 'tokens.user_id'),
        ),
      ),
    )
    .orderBy('users.email')
    .execute();

export async function hasOpenInvitation(db: Db, teamId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('tokens')
    .select('id')
    .where('kind', '=', 'invite')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row !== undefined;
}

/** Withdraws the team's open invitations of one account. */
export const revokeInvitations = (db: Db, teamId: number, userId: number) =>
  db
    .updateTable('tokens')
    .set({ used_at: new Date() })
    .where('kind', '=', 'invite')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();

export async function isVerifiedUser(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('email_verified')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.email_verified === true;
}

/** The language of the team's first owner: what an invitation to an address without an account is written in. */
export const findTeamOwnerLanguage = async (db: Db, teamId: number) =>
  (
    await db
      .selectFrom('team_members as m')
      .innerJoin('groups as g', 'g.id', 'm.group_id')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('u.language')
      .where('m.team_id', '=', teamId)
      .where('g.name', '=', 'Owner')
      .orderBy('m.created_at')
      .limit(1)
      .executeTakeFirst()
  )?.language;
