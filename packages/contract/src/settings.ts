import { z } from 'zod';
import { forAnyone, forUsers, userRoute } from './route.ts';

// Settings the browser needs before login (legal pages), the debug switch, and the health probe;
// outside a team, under /api.

export const publicSettings = z.object({
  operatorName: z.string(),
  operatorAddress: z.string(),
  operatorEmail: z.string(),
  publicFtpHost: z.string(),
});
export type PublicSettings = z.infer<typeof publicSettings>;
export const debugSettings = z.object({ debugAdmin: z.boolean() });
export type DebugSettings = z.infer<typeof debugSettings>;

export const getPublicSettings = userRoute({
  method: 'GET',
  path: '/settings/public',
  response: publicSettings,
  access: forAnyone,
});

/** Not announced to visitors: only a logged-in user's page asks whether debug actions exist. */
export const getDebugSettings = userRoute({
  method: 'GET',
  path: '/settings/debug',
  response: debugSettings,
  access: forUsers,
});

/** 200 when the server and its database answer; 503 DatabaseUnavailable while the database is away. */
export const getHealth = userRoute({
  method: 'GET',
  path: '/health',
  response: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
  access: forAnyone,
  errors: ['DatabaseUnavailable'],
});
