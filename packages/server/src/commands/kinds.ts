/**
 * Commands that wait on other hosts (a login to an FTP server, fetching a calendar): they take
 * seconds, up to their timeout, and run in a lane of their own so that the fast local commands
 * (XMP download and store, test images) never queue behind them. A new network command adds its
 * kind here; every other kind is fast.
 */
export const slowCommandKinds: readonly string[] = [
  'testftpserver',
  'createexternalcalendar',
  'updateexternalcalendar',
];

export const isSlowCommand = (kind: string) => slowCommandKinds.includes(kind);

/** Commands a runner process runs at once, per lane. Slow ones mostly wait on sockets. */
export const laneConcurrency = { fast: 2, slow: 8 } as const;
export type Lane = keyof typeof laneConcurrency;

/** Slow commands one member may have waiting or running at once; more answer TooManyRequests. */
export const queuedSlowCommandsPerMember = 3;

/** Finished commands (with their detail) are removed after this. */
export const finishedCommandRetentionMs = 24 * 3600_000;
