import * as c from '@photorelay/contract/calendar';
import { okResult } from '@photorelay/contract/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { forMembers, forNode, forTeamAdmins } from '../../http/access.ts';
import * as bookings from './bookings.ts';
import * as entries from './entries.ts';
import * as invitations from './invitations.ts';
import { entryXmp } from './xmp.ts';

const teamUuid = z.string();
const id = c.calendarRoutes.getCalendarEntry.params.shape.id;
const ok = { result: 'OK' as const };
// Header values must be Latin-1: an ASCII name plus the real one in RFC 5987 form.
const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** Spec §7 "Calendar": the team's calendars, entries, bookings and invitations. */
export function calendarRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/calendars',
      { config: forMembers, schema: { response: { 200: c.getCalendarsResponse } } },
      (request) => entries.listCalendars(ctx, request.member),
    );

    app.get(
      '/calendar/:id',
      {
        config: forNode('read', { kind: 'calendar', param: 'id' }),
        schema: { params: z.object({ teamUuid, id }), response: { 200: c.getCalendarResponse } },
      },
      async (request) => ({
        ...ok,
        calendar: await entries.getCalendar(ctx, request.member, request.params.id),
      }),
    );

    app.post(
      '/calendar/entries',
      {
        config: forMembers,
        schema: { body: c.postCalendarEntriesBody, response: { 200: c.postCalendarEntriesResponse } },
      },
      (request) => entries.listEntries(ctx, request.member, request.body),
    );

    app.get(
      '/calendarentry/:id',
      {
        config: forMembers,
        schema: { params: z.object({ teamUuid, id }), response: { 200: c.getCalendarEntryResponse } },
      },
      async (request) => ({ ...ok, entry: await entries.getEntry(ctx, request.member, request.params.id) }),
    );

    app.post(
      '/calendar/:dbcalendarid/entry',
      {
        config: forTeamAdmins,
        schema: {
          params: z.object({ teamUuid, dbcalendarid: id }),
          body: c.calendarEntryBody,
          response: { 200: c.postCalendarEntryResponse },
        },
      },
      async (request) => ({
        ...ok,
        calendarentryid: await entries.createEntry(
          ctx,
          request.member,
          request.params.dbcalendarid,
          request.body,
        ),
      }),
    );

    app.put(
      '/calendar/:dbcalendarid/entry/:id',
      {
        config: forTeamAdmins,
        schema: {
          params: z.object({ teamUuid, dbcalendarid: id, id }),
          body: c.calendarEntryBody,
          response: { 200: c.putCalendarEntryResponse },
        },
      },
      async (request) => ({
        ...ok,
        entry: await entries.updateEntry(
          ctx,
          request.member,
          request.params.dbcalendarid,
          request.params.id,
          request.body,
        ),
      }),
    );

    app.delete(
      '/calendar/entry/:id',
      {
        config: forTeamAdmins,
        schema: { params: z.object({ teamUuid, id }), response: { 200: okResult } },
      },
      async (request) => {
        await entries.deleteEntry(ctx, request.member, request.params.id);
        return ok;
      },
    );

    app.post(
      '/calendarentry/:id/copy',
      {
        config: forTeamAdmins,
        schema: { params: z.object({ teamUuid, id }), response: { 200: c.copyEntryResponse } },
      },
      async (request) => ({
        ...ok,
        calendarentryid: await entries.copyEntry(ctx, request.member, request.params.id),
      }),
    );

    app.put(
      '/calendarentry/:id/confirm',
      {
        config: forMembers,
        schema: { params: z.object({ teamUuid, id }), response: { 200: c.entryStateResponse } },
      },
      async (request) => ({
        ...ok,
        entry: await entries.confirmEntry(ctx, request.member, request.params.id),
      }),
    );

    app.put(
      '/calendarentry/:id/cancel',
      {
        config: forTeamAdmins,
        schema: { params: z.object({ teamUuid, id }), response: { 200: c.entryStateResponse } },
      },
      async (request) => ({
        ...ok,
        entry: await entries.cancelEntry(ctx, request.member, request.params.id),
      }),
    );

    app.put(
      '/calendarentry/:id/flag/:bit',
      {
        config: forTeamAdmins,
        schema: {
          params: z.object({ teamUuid, id, bit: c.flagBitParam }),
          body: c.putEntryFlagBody,
          response: { 200: c.putEntryFlagResponse },
        },
      },
      async (request) => ({
        ...ok,
        flags: await entries.setFlag(
          ctx,
          request.member,
          request.params.id,
          request.params.bit,
          request.body.value,
        ),
      }),
    );

    app.post(
      '/calendar/suggestentries',
      {
        config: forTeamAdmins,
        schema: { body: c.postSuggestEntriesBody, response: { 200: c.postSuggestEntriesResponse } },
      },
      async (request) => ({
        ...ok,
        invitations: await invitations.suggestEntries(ctx, request.member, request.body),
      }),
    );

    app.post(
      '/booking',
      {
        config: forTeamAdmins,
        schema: { body: c.postBookingBody, response: { 200: c.postBookingResponse } },
      },
      async (request) => ({
        ...ok,
        booking: await bookings.changeBooking(ctx, request.member, request.body),
      }),
    );

    app.get(
      '/calendarentry/:id/bookinghistory',
      {
        config: forTeamAdmins,
        schema: { params: z.object({ teamUuid, id }), response: { 200: c.getBookingHistoryResponse } },
      },
      async (request) => ({ history: await bookings.bookingHistory(ctx, request.member, request.params.id) }),
    );

    app.get(
      '/calendar/mybookings',
      {
        config: forMembers,
        schema: { querystring: c.myBookingsQuery, response: { 200: c.getMyBookingsResponse } },
      },
      async (request) => ({ bookings: await bookings.myBookings(ctx, request.member, request.query.from) }),
    );

    app.post(
      '/calendar/mybookings/:id',
      {
        config: forMembers,
        schema: {
          params: z.object({ teamUuid, id }),
          body: c.postMyBookingAnswerBody,
          response: { 200: c.postMyBookingAnswerResponse },
        },
      },
      async (request) => ({
        ...ok,
        booking: await bookings.answerFromCalendar(
          ctx,
          request.member,
          request.params.id,
          request.body.answer,
        ),
      }),
    );

    app.get(
      '/timezone',
      { config: forMembers, schema: { response: { 200: c.getTimeZoneResponse } } },
      async (request) => ({
        timeZone: await entries.getTimeZone(ctx, request.member),
      }),
    );

    app.put(
      '/timezone',
      {
        config: forTeamAdmins,
        schema: { body: c.putTimeZoneBody, response: { 200: c.getTimeZoneResponse } },
      },
      async (request) => ({
        timeZone: await entries.setTimeZone(ctx, request.member, request.body.timeZone),
      }),
    );

    app.get(
      '/calendar/xmp/:entryId',
      { config: forTeamAdmins, schema: { params: z.object({ teamUuid, entryId: id }) } },
      async (request, reply) => {
        const file = await entryXmp(ctx, request.member, request.params.entryId);
        return reply
          .type('application/rdf+xml')
          .header('content-disposition', attachment(file.filename))
          .send(file.content);
      },
    );
  };
}
