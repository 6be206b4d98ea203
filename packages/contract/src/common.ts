import { z } from 'zod';

export const errorResponse = z.object({ error: z.string(), message: z.string().optional() });
export const okResult = z.object({ result: z.literal('OK') });
export const teamParams = z.object({ teamUuid: z.uuid() });
export const idParam = z.coerce.number().int().positive().max(2_147_483_647);
// A request that carries no data still sends `{}` so the JSON/Origin checks apply to it.
export const emptyBody = z.object({}).strict().optional();
