import { z } from 'zod';
import { idParam } from './common.ts';

export const commandStarted = z.object({ result: z.literal('OK'), commandId: z.number(), token: z.string() });
export const commandStateParams = z.object({
  teamUuid: z.uuid(),
  commandId: idParam,
  token: z.string().max(100),
});
export const commandStateResponse = z.object({
  state: z.enum(['ok', 'error']).nullable(),
  detail: z.unknown().optional(),
});
export type CommandState = z.infer<typeof commandStateResponse>;
