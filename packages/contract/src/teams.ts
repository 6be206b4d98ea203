import { z } from 'zod';
import { email, emailKey, groupInfo } from './account.ts';
import { idParam, okResult } from './common.ts';
import { limits } from './limits.ts';
import { forMembers, forTeamAdmins, teamRoute } from './route.ts';

export const groupSchema = z.object({
  dbgroupid: z.number(),
  name: z.string(),
  localizedName: z.string(),
  has_all_permissions: z.boolean(),
});

export const teamMember = z.object({
  dbuserid: z.number(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  fullname: z.string(),
  groups: z.array(groupSchema),
  accreditation_number: z.string().nullable(),
  email_verified: z.boolean(),
  isOwner: z.boolean(),
});

export const getUsersResponse = z.object({ members: z.array(teamMember) });
export const getGroupsResponse = z.object({ groups: z.array(groupSchema) });

// Spec §5 invite dialog: top-level domain 2 to 12 characters.
export const inviteEmailPattern = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,12}$/;
export const postTeamUserBody = z.object({
  email: emailKey.regex(inviteEmailPattern),
  sendInvitationIfNeeded: z.boolean().optional(),
  language: z.enum(['en', 'de']).optional(),
});
export const inviteResults = ['ALREADY_OK', 'ADDED_OK', 'INVITATION_PENDING'] as const;
export const postTeamUserResponse = z.object({ result: z.enum(inviteResults) });
export const deleteTeamUserBody = z.object({ email });
export const postUserGroupsBody = z.object({ groups: z.array(z.number().int()).length(1) });
export const postTeamUserDetailsBody = z.object({
  accreditation_number: z.string().trim().max(limits.accreditationNumber).nullable(),
});

// ---- routes (spec §7 "Team users, groups") ----

const userParams = z.object({ dbuserid: idParam });

/** The caller's own groups in the team. */
export const getMyGroups = teamRoute({
  method: 'GET',
  path: '/user/groups',
  response: z.object({ groups: z.array(groupInfo) }),
  access: forMembers,
});

export const listMembers = teamRoute({
  method: 'GET',
  path: '/users',
  response: getUsersResponse,
  access: forTeamAdmins,
});

export const listGroups = teamRoute({
  method: 'GET',
  path: '/groups',
  response: getGroupsResponse,
  access: forTeamAdmins,
});

/** Adds an account, or invites the address by mail when asked to. */
export const inviteMember = teamRoute({
  method: 'POST',
  path: '/user',
  body: postTeamUserBody,
  response: postTeamUserResponse,
  errors: ['TooManyRequests', 'SendMailFailed'],
  access: forTeamAdmins,
});

export const removeMember = teamRoute({
  method: 'DELETE',
  path: '/user',
  body: deleteTeamUserBody,
  response: okResult,
  access: forTeamAdmins,
});

export const setMemberGroup = teamRoute({
  method: 'POST',
  path: '/user/:dbuserid/groups',
  params: userParams,
  body: postUserGroupsBody,
  response: okResult,
  access: forTeamAdmins,
});

export const setMemberDetails = teamRoute({
  method: 'POST',
  path: '/teamuser/:dbuserid',
  params: userParams,
  body: postTeamUserDetailsBody,
  response: okResult,
  access: forTeamAdmins,
});
