import { AppError } from '@photorelay/contract/errors';
import type { AppContext } from '../../context.ts';
import type { Member } from '../teams/service.ts';
import * as q from './event-stamp-queries.ts';

// The project setting of event-aware stamping. The routes' access guard checked the project's
// folder permission (read to see it, write to change it); another team's project is 404 here.

export async function getEventStamping(ctx: AppContext, member: Member, projectId: number) {
  const on = await q.getEventStamping(ctx.db, member.teamId, projectId);
  if (on === undefined) throw new AppError('NotFound');
  return { eventStamping: on };
}

export async function setEventStamping(ctx: AppContext, member: Member, projectId: number, on: boolean) {
  const done = await q.setEventStamping(ctx.db, member.teamId, projectId, on);
  if (done.numUpdatedRows === 0n) throw new AppError('NotFound');
}
