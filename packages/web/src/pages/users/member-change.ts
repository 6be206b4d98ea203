// What the 'Edit user' dialog sends: only what changed (spec §2, §6).
import type { MemberChange, TeamMember } from '../../api/teams.ts';

export function memberChange(
  member: Pick<TeamMember, 'dbuserid' | 'groups' | 'isOwner' | 'accreditation_number'>,
  edited: { group: number | null; accreditation: string },
): MemberChange | null {
  const change: MemberChange = { dbuserid: member.dbuserid };
  const currentGroup = member.groups[0]?.dbgroupid ?? null;
  // The owner's group is fixed; a member always keeps exactly one group.
  if (!member.isOwner && edited.group !== null && edited.group !== currentGroup) change.group = edited.group;
  const accreditation = edited.accreditation.trim() || null;
  if (accreditation !== (member.accreditation_number ?? null)) change.accreditationNumber = accreditation;
  return change.group === undefined && change.accreditationNumber === undefined ? null : change;
}
