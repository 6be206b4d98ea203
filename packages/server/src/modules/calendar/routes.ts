import * as c from '@photorelay/contract/calendar';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as bookings from './bookings.ts';
import * as entries from './entries.ts';
import * as flags from './flags.ts';
import * as invitations from './invitations.ts';
import { entryXmp } from './xmp.ts';

const ok = { result: 'OK' as const };
// Header values must be Latin-1: an ASCII name plus the real one in RFC 5987 form.
const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** Spec §7 "Calendar": the team's calendars, entries, bookings and invitations (declared in the contract). */
export function calendarRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, c.getCalendars, (request) => entries.listCalendars(ctx, request.member));

    handle(app, c.getCalendar, async (request) => ({
      ...ok,
      calendar: await entries.getCalendar(ctx, request.member, request.params.id),
    }));

    // The answer is JSON text put together from parts the contract's schemas checked (present.ts).
    handle(app, c.postCalendarEntries, async (request, reply) =>
      reply.type('application/json').send(await entries.listEntries(ctx, request.member, request.body)),
    );

    handle(app, c.getCalendarEntry, async (request) => ({
      ...ok,
      entry: await entries.getEntry(ctx, request.member, request.params.id),
    }));

    handle(app, c.postCalendarEntry, async (request) => ({
      ...ok,
      calendarentryid: await entries.createEntry(
        ctx,
        request.member,
        request.params.dbcalendarid,
        request.body,
      ),
    }));

    handle(app, c.putCalendarEntry, async (request) => ({
      ...ok,
      entry: await entries.updateEntry(
        ctx,
        request.member,
        request.params.dbcalendarid,
        request.params.id,
        request.body,
      ),
    }));

    handle(app, c.deleteCalendarEntry, async (request) => {
      await entries.deleteEntry(ctx, request.member, request.params.id);
      return ok;
    });

    handle(app, c.copyCalendarEntry, async (request) => ({
      ...ok,
      calendarentryid: await entries.copyEntry(ctx, request.member, request.params.id),
    }));

    handle(app, c.confirmCalendarEntry, async (request) => ({
      ...ok,
      entry: await entries.confirmEntry(ctx, request.member, request.params.id),
    }));

    handle(app, c.cancelCalendarEntry, async (request) => ({
      ...ok,
      entry: await entries.cancelEntry(ctx, request.member, request.params.id),
    }));

    handle(app, c.getTeamFlags, async (request) => ({
      ...ok,
      flags: await flags.listTeamFlags(ctx, request.member),
    }));
    handle(app, c.postTeamFlag, async (request) => ({
      ...ok,
      flags: await flags.addTeamFlag(ctx, request.member, request.body.name),
    }));
    handle(app, c.putTeamFlag, async (request) => ({
      ...ok,
      flags: await flags.renameTeamFlag(ctx, request.member, request.params.bit, request.body.name),
    }));
    handle(app, c.deleteTeamFlag, async (request) => ({
      ...ok,
      flags: await flags.removeTeamFlag(
        ctx,
        request.member,
        request.params.bit,
        request.query.force === 'true',
      ),
    }));

    handle(app, c.putEntryFlag, async (request) => ({
      ...ok,
      flags: await entries.setFlag(
        ctx,
        request.member,
        request.params.id,
        request.params.bit,
        request.body.value,
      ),
    }));

    handle(app, c.postSuggestEntries, async (request) => ({
      ...ok,
      invitations: await invitations.suggestEntries(ctx, request.member, request.body),
    }));

    handle(app, c.postBooking, async (request) => ({
      ...ok,
      booking: await bookings.changeBooking(ctx, request.member, request.body),
    }));

    handle(app, c.getBookingHistory, async (request) => ({
      history: await bookings.bookingHistory(ctx, request.member, request.params.id),
    }));

    handle(app, c.getMyBookings, async (request) => ({
      bookings: await bookings.myBookings(ctx, request.member, request.query.from),
    }));

    handle(app, c.postMyBookingAnswer, async (request) => ({
      ...ok,
      booking: await bookings.answerFromCalendar(ctx, request.member, request.params.id, request.body.answer),
    }));

    handle(app, c.getTimeZone, async (request) => ({
      timeZone: await entries.getTimeZone(ctx, request.member),
    }));

    handle(app, c.putTimeZone, async (request) => ({
      timeZone: await entries.setTimeZone(ctx, request.member, request.body.timeZone),
    }));

    // A file, not JSON: the string is sent as it is under its own content type.
    handle(app, c.getCalendarXmp, async (request, reply) => {
      const file = await entryXmp(ctx, request.member, request.params.entryId);
      reply
        .type('application/rdf+xml; charset=utf-8')
        .header('content-disposition', attachment(file.filename));
      return file.content;
    });
  };
}
