import { groupInfo } from '@photorelay/contract/account';
import { idParam, okResult } from '@photorelay/contract/common';
import * as c from '@photorelay/contract/teams';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { forMembers, forTeamAdmins } from '../../http/access.ts';
import * as members from './members.ts';
import * as teams from './service.ts';

const id = idParam;
const ok = { result: 'OK' as const };

/** Team-scoped calls of spec §7 "Team users, groups"; mounted under /api/:teamUuid. */
export function teamRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    app.get(
      '/user/groups',
      { config: forMembers, schema: { response: { 200: z.object({ groups: z.array(groupInfo) }) } } },
      async (request) => ({
        groups: await teams.callerGroups(db, request.member),
      }),
    );

    app.get(
      '/users',
      { config: forTeamAdmins, schema: { response: { 200: c.getUsersResponse } } },
      async (request) => ({
        members: await members.listMembers(db, request.member),
      }),
    );

    app.get(
      '/groups',
      { config: forTeamAdmins, schema: { response: { 200: c.getGroupsResponse } } },
      async (request) => ({
        groups: await members.listGroups(db, request.member),
      }),
    );

    app.post(
      '/user',
      {
        config: forTeamAdmins,
        schema: { body: c.postTeamUserBody, response: { 200: c.postTeamUserResponse } },
      },
      async (request) => ({ result: await members.inviteUser(ctx, request.member, request.body) }),
    );

    app.delete(
      '/user',
      { config: forTeamAdmins, schema: { body: c.deleteTeamUserBody, response: { 200: okResult } } },
      async (request) => {
        await members.removeUser(db, request.member, request.body.email);
        return ok;
      },
    );

    app.post(
      '/user/:dbuserid/groups',
      {
        config: forTeamAdmins,
        schema: {
          params: z.object({ teamUuid: z.string(), dbuserid: id }),
          body: c.postUserGroupsBody,
          response: { 200: okResult },
        },
      },
      async (request) => {
        await members.setUserGroup(db, request.member, request.params.dbuserid, request.body.groups[0]);
        return ok;
      },
    );

    app.post(
      '/teamuser/:dbuserid',
      {
        config: forTeamAdmins,
        schema: {
          params: z.object({ teamUuid: z.string(), dbuserid: id }),
          body: c.postTeamUserDetailsBody,
          response: { 200: okResult },
        },
      },
      async (request) => {
        await members.setAccreditationNumber(
          db,
          request.member,
          request.params.dbuserid,
          request.body.accreditation_number,
        );
        return ok;
      },
    );
  };
}
