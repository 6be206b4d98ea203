import { commandStarted, getCommandState } from '@photorelay/contract/commands';
import { AppError } from '@photorelay/contract/errors';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { tokenMatches } from '../crypto/tokens.ts';
import { handle } from '../http/route.ts';
import type { CommandKind } from './kinds.ts';
import * as q from './queries.ts';
import { queueCommand } from './service.ts';

/** Stores a command for the runner and answers `{result, commandId, token}` (spec §7). */
export async function startCommand(
  ctx: AppContext,
  request: FastifyRequest,
  kind: CommandKind,
  payload: unknown,
) {
  const { commandId, token } = await queueCommand(ctx, request.member, kind, payload);
  return { result: 'OK' as const, commandId, token };
}

export type CommandPayload<S extends z.ZodType> = z.infer<S>;
export const commandResponse = { 200: commandStarted };

/**
 * GET team/command/state/{commandId}/{token}; polled every second by the browser. Only the member
 * who started the command reads it: the detail may hold what they typed (a server's answer).
 */
export function commandStateRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    handle(app, getCommandState, async (request) => {
      const row = await q.findCommand(ctx.db, request.member, request.params.commandId);
      if (!row || !tokenMatches(request.params.token, row.token_hash)) throw new AppError('NotFound');
      return { state: row.state, detail: row.detail ?? undefined };
    });
  };
}
