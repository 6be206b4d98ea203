import { z } from 'zod';

export const errorResponse = z.object({ error: z.string(), message: z.string().optional() });
export const okResult = z.object({ result: z.literal('OK') });
export const teamParams = z.object({ teamUuid: z.uuid() });
/**
 * A whole number in a URL, written only the canonical decimal way: `0x2`, `2e0`, `+2`, ` 2` or
 * `02` are refused instead of being read as 2 (z.coerce would take them all).
 */
export const decimalParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]{0,9})$/, 'must be a decimal number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
/** A row id in a URL: 1 to the largest PostgreSQL integer. */
export const idParam = decimalParam(1, 2_147_483_647);
// A request that carries no data still sends `{}` so the JSON/Origin checks apply to it.
export const emptyBody = z.object({}).strict().optional();
/** A download's 200 answer: the file itself, under its own content type (not JSON). */
export const fileDownload = z.string().describe('The file itself, sent as an attachment');
