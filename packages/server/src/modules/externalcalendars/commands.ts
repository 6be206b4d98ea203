import * as c from '@photorelay/contract/externalcalendars';
import type { CommandHandlers } from '../../commands/registry.ts';
import { memberForCommand } from '../teams/service.ts';
import * as calendars from './service.ts';

// Both commands fetch a feed over the network (up to the fetch deadline): they run in the worker.
export const externalCalendarCommands = {
  createexternalcalendar: async (ctx, run) => {
    const input = c.createExternalCalendarBody.parse(run.payload);
    return calendars.createExternalCalendar(ctx, await memberForCommand(ctx.db, run), input.calendarUrl);
  },
  updateexternalcalendar: async (ctx, run) => {
    const input = c.updateExternalCalendarBody.parse(run.payload);
    return calendars.updateExternalCalendar(ctx, await memberForCommand(ctx.db, run), input.calendarRefName);
  },
} satisfies CommandHandlers;
