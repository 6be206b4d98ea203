import { AppError } from '@photorelay/contract/errors';
import * as c from '@photorelay/contract/externalcalendars';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as feeds from './feed-service.ts';

/** The member's own feed URL (profile page): show, renew, revoke. */
export function calendarFeedRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, c.getCalendarFeed, async (request) => feeds.getFeedUrl(ctx, request.member));
    handle(app, c.renewCalendarFeed, async (request) => feeds.renewFeedUrl(ctx, request.member));
    handle(app, c.revokeCalendarFeed, async (request) => feeds.revokeFeedUrl(ctx, request.member));
  };
}

/** The subscription itself, under /api without a session: calendar apps know only the URL. */
export function calendarFeedPublicRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, c.getPublicCalendarFeed, async (request, reply) => {
      const token = request.params.file.replace(/\.ics$/i, '');
      if (!token) throw new AppError('NotFound');
      const text = await feeds.renderFeed(ctx, request.params.selector, token);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', 'inline; filename="photorelay.ics"')
        .send(text);
    });
  };
}
