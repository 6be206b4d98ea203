import { AppError } from '@photorelay/contract/errors';
import type { Db } from '../../db/kysely.ts';
import type { GroupName } from '../../db/schema.ts';
import * as q from './queries.ts';

export interface Member {
  teamId: number;
  teamUuid: string;
  teamName: string;
  teamReady: boolean;
  /** The team's time zone (IANA name), read with the membership: the calendar needs it per request. */
  teamTimeZone: string;
  userId: number;
  groupId: number;
  groupName: GroupName;
  hasAllPermissions: boolean;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `segment` lower-cased when it can name a team (a UUID), else undefined. */
export const asTeamUuid = (segment: string | undefined) =>
  segment !== undefined && uuidPattern.test(segment) ? segment.toLowerCase() : undefined;

/** The membership of a row read by a left join: its columns are all null when there is none. */
export function memberOrNull(row: { [K in keyof Member]: Member[K] | null }): Member | null {
  if (row.teamId === null || row.userId === null) return null;
  const m = row as Member;
  // Only the membership's fields (the row has the session's too), in one object literal.
  return {
    teamId: m.teamId,
    teamUuid: m.teamUuid,
    teamName: m.teamName,
    teamReady: m.teamReady,
    teamTimeZone: m.teamTimeZone,
    userId: m.userId,
    groupId: m.groupId,
    groupName: m.groupName,
    hasAllPermissions: m.hasAllPermissions,
  };
}

/** The caller's membership; a team they are not in (or that does not exist) is 404. */
export async function requireMember(db: Db, teamUuid: string, userId: number): Promise<Member> {
  const uuid = asTeamUuid(teamUuid);
  if (!uuid) throw new AppError('NotFound');
  const member = await q.findMembership(db, uuid, userId);
  if (!member) throw new AppError('NotFound');
  return member;
}

/** A new team owned by `userId`, waiting for provisioning (ready: false). */
export async function createTeamOwnedBy(db: Db, name: string, userId: number) {
  const team = await q.insertTeamWithGroups(db, name);
  await q.insertMember(db, team.teamId, userId, team.groupId('Owner'));
  return team;
}

export const localizedGroupName: Record<GroupName, string> = {
  Owner: 'Team Owner',
  Operator: 'Operator',
  Photographer: 'Photographer',
};

export function presentGroup(g: { id: number; name: GroupName; has_all_permissions: boolean }) {
  return {
    dbgroupid: g.id,
    name: g.name,
    localizedName: localizedGroupName[g.name],
    has_all_permissions: g.has_all_permissions,
  };
}

export async function callerGroups(db: Db, member: Member) {
  const groups = await q.listMemberGroups(db, member.teamId, member.userId);
  return groups.map(presentGroup);
}

/** The member who started an async command; a member removed meanwhile may no longer run it. */
export async function memberForCommand(db: Db, run: { teamId: number; userId: number }): Promise<Member> {
  const member = await q.findMembershipById(db, run.teamId, run.userId);
  if (!member) throw new AppError('NotFound');
  return member;
}
