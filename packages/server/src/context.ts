import type { Logger } from 'pino';
import type { Mailer } from './adapters/mail/mailer.ts';
import type { PictureScaler } from './adapters/pictures/picture-scaler.ts';
import type { BlobStore } from './adapters/storage/blob-store.ts';
import type { Config } from './config.ts';
import type { Db } from './db/kysely.ts';
import type { DataDisk } from './observe/data-disk.ts';

/** What services get handed: no global container, each takes the parts it uses. */
export interface AppContext {
  config: Config;
  db: Db;
  mailer: Mailer;
  log: Logger;
  blobs: BlobStore;
  /** Decodes untrusted pictures (thumbnails) in its own process, with a deadline and a memory limit. */
  pictures: PictureScaler;
  /**
   * Nudges background loops (provisioning, commands) so fresh work starts at once. The
   * pipeline's `'uploads'`: only a new upload, whose jobs wait for its processing anyway.
   */
  wake: { provisioning(): void; commands(): void; pipeline(what?: 'uploads'): void };
  /** Whether the data disk is full: readiness, health, the ingest and the dashboard ask it. */
  disk: DataDisk;
  /** What readiness reports beside the database; runtime.ts sets it as the ingest starts and stops. */
  parts: { ingest: 'listening' | 'stopped' | 'none' };
}
