import * as c from '@photorelay/contract/externalcalendars';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { startCommand } from '../../commands/routes.ts';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as eventStamp from './event-stamp-service.ts';
import * as calendars from './service.ts';

/** Spec §7 "Calendar": external calendars; the routes are declared in the contract. */
export function externalCalendarRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, c.listExternalCalendars, async (request) => ({
      calendars: await calendars.listExternalCalendars(ctx, request.member),
    }));

    handle(app, c.deleteExternalCalendar, async (request) => {
      await calendars.deleteExternalCalendar(ctx, request.member, request.params.dbcalendarid);
      return { result: 'OK' as const };
    });

    handle(app, c.createExternalCalendar, async (request) =>
      startCommand(ctx, request, 'createexternalcalendar', request.body),
    );

    handle(app, c.updateExternalCalendar, async (request) =>
      startCommand(ctx, request, 'updateexternalcalendar', request.body),
    );

    handle(app, c.getEventStamping, async (request) =>
      eventStamp.getEventStamping(ctx, request.member, request.params.id),
    );

    handle(app, c.putEventStamping, async (request) => {
      const { member, params, body } = request;
      await eventStamp.setEventStamping(ctx, member, params.id, body.eventStamping);
      return { result: 'OK' as const };
    });
  };
}
