import * as c from '@photorelay/contract/teams';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as members from './members.ts';
import * as teams from './service.ts';

const ok = { result: 'OK' as const };

/** Team-scoped calls of spec §7 "Team users, groups"; the routes are declared in the contract. */
export function teamRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    handle(app, c.getMyGroups, async (request) => ({
      groups: await teams.callerGroups(db, request.member),
    }));

    handle(app, c.listMembers, async (request) => ({
      members: await members.listMembers(db, request.member),
    }));

    handle(app, c.listGroups, async (request) => ({
      groups: await members.listGroups(db, request.member),
    }));

    handle(app, c.inviteMember, async (request) => ({
      result: await members.inviteUser(ctx, request.member, request.body),
    }));

    handle(app, c.removeMember, async (request) => {
      await members.removeUser(db, request.member, request.body.email);
      return ok;
    });

    handle(app, c.setMemberGroup, async (request) => {
      await members.setUserGroup(db, request.member, request.params.dbuserid, request.body.groups[0]);
      return ok;
    });

    handle(app, c.setMemberDetails, async (request) => {
      await members.setAccreditationNumber(
        db,
        request.member,
        request.params.dbuserid,
        request.body.accreditation_number,
      );
      return ok;
    });
  };
}
