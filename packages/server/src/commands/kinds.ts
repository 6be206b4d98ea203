/**
 * Every kind of command the routes queue (spec §7 'Async commands'). The runner refuses to start
 * without a handler for each (runtime.ts hands them over), so none can end as "Unknown command".
 */
export const commandKinds = [
  'storexmpfile',
  'downloadxmpfile',
  'processimage',
  'storescriptfile',
  'testftpserver',
  'createexternalcalendar',
  'updateexternalcalendar',
] as const;
export type CommandKind = (typeof commandKinds)[number];

/**
 * Commands that wait on other hosts (a login to an FTP server, fetching a calendar): they take
 * seconds, up to their timeout, and run in a lane of their own so that the fast local commands
 * (XMP download and store, test images) never queue behind them. A new network command adds its
 * kind here; every other kind is fast.
 */
export const slowCommandKinds: readonly CommandKind[] = [
  'testftpserver',
  'createexternalcalendar',
  'updateexternalcalendar',
];

export const isSlowCommand = (kind: string) => (slowCommandKinds as readonly string[]).includes(kind);

/** Commands a runner process runs at once, per lane. Slow ones mostly wait on sockets. */
export const laneConcurrency = { fast: 2, slow: 8 } as const;
export type Lane = keyof typeof laneConcurrency;

/**
 * Slow commands one team may have running at once (over all runners): half the slow lane, so
 * one team's Tests against a host that never answers (each waits its 20 s timeout) leave slots
 * for everybody else (issue 25: another team's Test waited 18.5 s for a slot).
 */
export const slowCommandsPerTeam = 4;

/** Slow commands one member may have waiting or running at once; more answer TooManyRequests. */
export const queuedSlowCommandsPerMember = 3;

/** Finished commands (with their detail) are removed after this. */
export const finishedCommandRetentionMs = 24 * 3600_000;
