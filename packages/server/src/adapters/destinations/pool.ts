import crypto from 'node:crypto';
import { limits } from '@photorelay/contract/limits';
import { createDestinationClient } from './connect.ts';
import type { DestinationClient, DestinationSettings } from './destination.ts';

/**
 * Connections to destination servers, reused between uploads and limited per server: many
 * agency servers allow one login at a time, and reconnecting (TLS/SSH handshake, login) often
 * costs more than a small picture's transfer.
 *
 * Keyed by the server's id plus a hash of its connection settings, so an edited server gets
 * fresh connections while the old ones simply age out. A connection that failed in any way
 * is closed, never handed out again. Idle ones close after `idleMs`.
 */

export interface PooledServer {
  /** The FtpServer row id (or any stable id). */
  id: string | number;
  settings: DestinationSettings;
  /** At most this many connections to this server at once. Default 4. */
  maxConnections?: number;
}

interface Entry {
  idle: Array<{ client: DestinationClient; timer: NodeJS.Timeout }>;
  /** Connections open or being opened (idle + busy + connecting). */
  open: number;
  waiters: Array<() => void>;
}

export class DestinationPool {
  private readonly entries = new Map<string, Entry>();
  private readonly idleMs: number;
  private readonly connect: (settings: DestinationSettings) => Promise<DestinationClient>;
  private closing = false;

  constructor(
    options: {
      idleMs?: number;
      connect?: (settings: DestinationSettings) => Promise<DestinationClient>;
    } = {},
  ) {
    this.idleMs = options.idleMs ?? 30_000;
    this.connect = options.connect ?? createDestinationClient;
  }

  /**
   * Runs `work` with a connection to the server; waits while the server's limit is reached.
   * `fresh`: a new connection, never an idle one (after a connection broke under a transfer).
   */
  async use<T>(
    server: PooledServer,
    work: (client: DestinationClient) => Promise<T>,
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<T> {
    const key = keyOf(server);
    const client = await this.acquire(key, server, fresh);
    try {
      const result = await work(client);
      this.release(key, client, false);
      return result;
    } catch (err) {
      this.release(key, client, true);
      throw err;
    }
  }

  /** Open connections (idle, busy, connecting) per key, for tests and status pages. */
  openConnections(server: PooledServer): number {
    return this.entries.get(keyOf(server))?.open ?? 0;
  }

  async closeAll(): Promise<void> {
    this.closing = true;
    const closes: Array<Promise<void>> = [];
    for (const entry of this.entries.values()) {
      for (const { client, timer } of entry.idle.splice(0)) {
        clearTimeout(timer);
        entry.open--;
        closes.push(client.close().catch(() => {}));
      }
      for (const wake of entry.waiters.splice(0)) wake();
    }
    await Promise.all(closes);
  }

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { idle: [], open: 0, waiters: [] };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private async acquire(key: string, server: PooledServer, fresh: boolean): Promise<DestinationClient> {
    const max = Math.max(1, server.maxConnections ?? limits.ftpServerConnectionsDefault);
    const entry = this.entry(key);
    let waited = false;
    for (;;) {
      if (this.closing) throw new Error('Connection pool is closed');
      // A fresh connection passes the idle ones by, closing one when the limit leaves no room.
      const reused = fresh && entry.open < max ? undefined : entry.idle.pop();
      if (reused) {
        clearTimeout(reused.timer);
        if (!reused.client.closed && !fresh) return reused.client;
        if (!reused.client.closed) void reused.client.close().catch(() => {});
        entry.open--; // went away while idle, or makes room for a fresh one
        continue;
      }
      if (entry.open < max) {
        entry.open++;
        try {
          return await this.connect(server.settings);
        } catch (err) {
          entry.open--;
          this.wakeOne(entry);
          throw err;
        }
      }
      // Full: wait for a release. A woken waiter that loses the race goes back to the front.
      await new Promise<void>((resolve) =>
        waited ? entry.waiters.unshift(resolve) : entry.waiters.push(resolve),
      );
      waited = true;
    }
  }

  private release(key: string, client: DestinationClient, failed: boolean): void {
    const entry = this.entry(key);
    if (failed || client.closed || this.closing) {
      entry.open--;
      void client.close().catch(() => {});
    } else {
      const timer = setTimeout(() => {
        const at = entry.idle.findIndex((i) => i.client === client);
        if (at < 0) return;
        entry.idle.splice(at, 1);
        entry.open--;
        void client.close().catch(() => {});
        if (entry.open === 0 && entry.waiters.length === 0) this.entries.delete(key);
      }, this.idleMs);
      timer.unref();
      entry.idle.push({ client, timer });
    }
    this.wakeOne(entry);
  }

  private wakeOne(entry: Entry): void {
    entry.waiters.shift()?.();
  }
}

function keyOf(server: PooledServer): string {
  const s = server.settings;
  const hash = crypto
    .createHash('sha256')
    .update(
      JSON.stringify([
        s.protocol,
        s.host,
        s.port,
        s.username,
        s.password,
        s.allowPrivateNetworks,
        s.timeoutMs,
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  return `${server.id}:${hash}`;
}
