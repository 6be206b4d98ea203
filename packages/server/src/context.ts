import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/kysely.ts';
import type { Mailer } from './mail/mailer.ts';

/** What services get handed: no global container, each takes the parts it uses. */
export interface AppContext {
  config: Config;
  db: Db;
  mailer: Mailer;
  log: Logger;
  /** Nudges background loops (provisioning, commands) so fresh work starts at once. */
  wake: { provisioning(): void; commands(): void };
}
