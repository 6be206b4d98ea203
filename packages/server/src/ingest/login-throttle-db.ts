import type { Logger } from 'pino';
import type { Db } from '../db/kysely.ts';
import type { LoginThrottleStore, PairPolicy } from './login-throttle.ts';
import { countFailingNames, countLoginAttempt, purgeLoginFailures, settleLoginAttempt } from './queries.ts';

const PURGE_EVERY_MS = 60_000;

/** The login counts in the database, so every ingest process (split roles) sees the same ones. */
export function databaseThrottleStore(db: Db, log: Logger, windowMs = 15 * 60_000): LoginThrottleStore {
  let lastPurge = 0;
  return {
    failingNames: (address, since) => countFailingNames(db, address, since),
    async begin(address: string, name: string, policy: PairPolicy) {
      const now = policy.now.getTime();
      if (now - lastPurge > PURGE_EVERY_MS) {
        lastPurge = now;
        // Old pairs only cost space; a failed purge is retried a minute later.
        await purgeLoginFailures(db, new Date(now - windowMs), policy.now).catch((err: unknown) =>
          log.warn({ err }, 'login failure purge failed'),
        );
      }
      const { attempts, blockedUntil } = await countLoginAttempt(db, address, name, policy);
      return { attempts, blockedUntil: blockedUntil?.getTime() ?? 0 };
    },
    settle: (address, name, outcome) => settleLoginAttempt(db, address, name, outcome),
  };
}
