import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from './kysely.ts';

/**
 * Wake-ups between processes that share one PostgreSQL database (split roles: `--role ingest`,
 * `--role web`, `--role worker`, on one or more machines). A camera's upload in the ingest
 * process, a Test click in the web process or a "retry now" NOTIFY the workers, which LISTEN
 * and start at once instead of at their next look (every second). A lost notification costs
 * only that second: the timers keep looking.
 */

const channel = 'photorelay_wake';
export const wakeTopics = ['pipeline', 'commands', 'provisioning'] as const;
export type WakeTopic = (typeof wakeTopics)[number];

/** Tells the workers of other processes that there is work. Never throws (the timers still look). */
export function notifyWorkers(db: Db, log: Logger, topic: WakeTopic): void {
  sql`select pg_notify(${channel}, ${topic})`
    .execute(db)
    .catch((err) => log.warn({ err, topic }, 'wake-up notification could not be sent'));
}

/** Listens on its own connection; reconnects after a second when the connection is lost. */
export function listenForWakeups(
  databaseUrl: string,
  log: Logger,
  onWake: (topic: WakeTopic) => void,
): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = () => {
    const next = new pg.Client({ connectionString: databaseUrl });
    client = next;
    const lost = (err?: Error) => {
      if (client !== next || closed) return;
      client = undefined;
      if (err) log.warn({ err }, 'wake-up listener lost its connection; reconnecting');
      next.end().catch(() => {});
      retry = setTimeout(connect, 1000);
      retry.unref();
    };
    next.on('error', lost);
    next.on('end', () => lost(new Error('connection ended')));
    next.on('notification', (message) => {
      const topic = wakeTopics.find((t) => t === message.payload);
      if (message.channel === channel && topic) onWake(topic);
    });
    next
      .connect()
      .then(() => next.query(`listen ${channel}`))
      .catch((err: Error) => lost(err));
  };
  connect();

  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
