import { z } from 'zod';
import { idParam } from './common.ts';
import type { ErrorCode } from './errors.ts';
import { forMembers, teamRoute } from './route.ts';

// Async commands (spec §4, §7): a POST team/command/<name> starts one and answers its id and a
// token; the browser then polls its state every second. Each area declares its own start routes.

export const commandStarted = z.object({ result: z.literal('OK'), commandId: z.number(), token: z.string() });
/** What starting any command can answer beyond the route's own: over quota, too many waiting. */
export const commandStartErrors = ['QuotaExceeded', 'TooManyRequests'] as const satisfies ErrorCode[];
export const commandStateParams = z.object({
  commandId: idParam,
  token: z.string().max(100),
});
export const commandStateResponse = z.object({
  state: z.enum(['ok', 'error']).nullable(),
  detail: z.unknown().optional(),
});
export type CommandState = z.infer<typeof commandStateResponse>;

/** GET team/command/state/{commandId}/{token}: null while the command runs. */
export const getCommandState = teamRoute({
  method: 'GET',
  path: '/command/state/:commandId/:token',
  params: commandStateParams,
  response: commandStateResponse,
  access: forMembers,
});
