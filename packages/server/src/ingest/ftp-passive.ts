import net from 'node:net';
import tls from 'node:tls';
import { BaseConnector, type DataConnector, type FtpSrvConnection } from './ftp-srv-internals.ts';
import { normalizeAddress } from './remote-address.ts';

/**
 * The passive ports of the FTP ingest (explicit and implicit FTPS share one pool), in place of
 * ftp-srv's passive connector, so that no client can take the ports of others:
 * - a listener lives only from PASV/EPSV until its data connection arrives (then the port is free
 *   again), the transfer ends, the session ends, or `listenTimeoutMs` passes;
 * - open listeners are capped per account, per client address and per team (a team holds at
 *   most its share of the range however many accounts and addresses it has); the one who hits a
 *   cap waits up to `waitMs` for a listener of its own to close, then gets a clear 425, and
 *   everyone else still finds free ports;
 * - a data connection is accepted only from the control connection's address; others are closed
 *   silently and the listener keeps waiting for the right one (ftp-srv instead aborted the
 *   session: anyone could cancel someone else's upload by connecting first).
 * With TLS (PROT P), the handshake runs on the accepted socket (after our address check).
 */

export interface PassiveLimits {
  perAccount: number;
  perAddress: number;
  /** Listeners all accounts of one team may hold open at once. */
  perTeam: number;
  /** A PASV at a cap (or with every port taken) waits this long for a free one before its 425. */
  waitMs: number;
  /** A listener nobody connected to is closed after this long. */
  listenTimeoutMs: number;
}

export class PassiveLimitError extends Error {}

interface Owner {
  accountId: number;
  teamId: number;
  address: string;
}

export class PassivePool {
  private readonly inUse = new Set<number>();
  private readonly byAccount = new Map<number, number>();
  private readonly byAddress = new Map<string, number>();
  private readonly byTeam = new Map<number, number>();
  /** PASVs waiting at a cap: woken whenever a listener closes. */
  private waiting = new Set<() => void>();
  private cursor: number;

  constructor(
    private readonly range: [min: number, max: number],
    private readonly host: string,
    private readonly limits: PassiveLimits,
  ) {
    // Start anywhere in the range, so a restart does not reuse the ports in TIME_WAIT first.
    this.cursor = range[0] + Math.floor(Math.random() * (range[1] - range[0] + 1));
  }

  /** Open listeners now (for tests and figures). */
  get open(): number {
    return this.inUse.size;
  }

  /**
   * Opens a listener for `conn`. At a cap it waits up to `waitMs` for a listener to close (a
   * camera crew on one account that briefly holds many); then throws PassiveLimitError (a
   * client-safe text).
   */
  async listen(
    conn: FtpSrvConnection,
    owner: Owner,
    secureContext: tls.SecureContext,
  ): Promise<PassiveConnector> {
    const deadline = Date.now() + this.limits.waitMs;
    for (;;) {
      const refusal = this.refusal(owner);
      if (!refusal) break;
      const left = deadline - Date.now();
      if (left <= 0) throw new PassiveLimitError(refusal);
      await this.released(left);
    }
    const slot = this.take(owner);
    try {
      const { server, port } = await this.bind();
      return new PassiveConnector(
        conn,
        server,
        port,
        owner.address,
        secureContext,
        this.limits.listenTimeoutMs,
        () => this.release(owner, port),
      );
    } catch (err) {
      slot();
      throw err;
    }
  }

  /** Why `owner` may not open a listener now, or null when it may. */
  private refusal(owner: Owner): string | null {
    if ((this.byAccount.get(owner.accountId) ?? 0) >= this.limits.perAccount)
      return 'Too many open data connections for this account; finish a transfer first';
    if ((this.byAddress.get(owner.address) ?? 0) >= this.limits.perAddress)
      return 'Too many open data connections from your address; try again shortly';
    if ((this.byTeam.get(owner.teamId) ?? 0) >= this.limits.perTeam)
      return 'Too many open data connections for your team; try again shortly';
    if (this.inUse.size >= this.range[1] - this.range[0] + 1)
      return 'No free passive port; try again shortly';
    return null;
  }

  /** Resolves when a listener closes, or after `ms`. */
  private released(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.add(done);
    });
  }

  private take(owner: Owner): () => void {
    this.byAccount.set(owner.accountId, (this.byAccount.get(owner.accountId) ?? 0) + 1);
    this.byAddress.set(owner.address, (this.byAddress.get(owner.address) ?? 0) + 1);
    this.byTeam.set(owner.teamId, (this.byTeam.get(owner.teamId) ?? 0) + 1);
    return () => this.release(owner, undefined);
  }

  private release(owner: Owner, port: number | undefined): void {
    if (port !== undefined) this.inUse.delete(port);
    decrement(this.byAccount, owner.accountId);
    decrement(this.byAddress, owner.address);
    decrement(this.byTeam, owner.teamId);
    // Every waiter looks again (each at its own caps); the first to find room takes it.
    const waiting = this.waiting;
    this.waiting = new Set();
    for (const wake of waiting) wake();
  }

  /** The next free port of the range that the system lets us listen on. */
  private async bind(): Promise<{ server: net.Server; port: number }> {
    const [min, max] = this.range;
    const size = max - min + 1;
    for (let tried = 0; tried < size; tried++) {
      const port = this.cursor;
      this.cursor = port >= max ? min : port + 1;
      if (this.inUse.has(port)) continue;
      this.inUse.add(port);
      const server = net.createServer({ pauseOnConnect: true });
      const ok = await new Promise<boolean>((resolve) => {
        // In use by another process: try the next. Later errors of a listening server are harmless.
        server.on('error', () => resolve(false));
        server.listen(port, this.host, () => resolve(true));
      });
      if (ok) return { server, port };
      this.inUse.delete(port);
    }
    throw new PassiveLimitError('No free passive port; try again shortly');
  }
}

function decrement<K>(counts: Map<K, number>, key: K): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}

type Accepted = net.Socket & { connected?: boolean };

/** One PASV/EPSV listener and its data connection, in the shape ftp-srv's connectors have. */
export class PassiveConnector implements DataConnector {
  type: 'passive' | false = 'passive';
  dataSocket: Accepted | null = null;
  dataServer: net.Server | null;
  /** Resolves on the TCP accept of the right client (before any TLS handshake). */
  readonly accepted: Promise<void>;
  private ready: Promise<Accepted>;
  private released = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly conn: FtpSrvConnection,
    server: net.Server,
    readonly port: number,
    remoteAddress: string,
    secureContext: tls.SecureContext,
    listenTimeoutMs: number,
    private readonly onRelease: () => void,
  ) {
    this.dataServer = server;
    let accept: () => void = () => {};
    this.accepted = new Promise((resolve) => {
      accept = resolve;
    });
    let fail: (err: Error) => void = () => {};
    this.ready = new Promise<Accepted>((resolve, reject) => {
      fail = reject;
      server.on('connection', (socket: net.Socket) => {
        if (this.dataSocket || normalizeAddress(socket.remoteAddress) !== remoteAddress) {
          socket.destroy(); // someone else's: ignore, keep waiting for ours
          return;
        }
        this.stopListening();
        socket.on('error', () => {});
        accept();
        if (!conn.secure) {
          const plain: Accepted = socket;
          plain.connected = true;
          this.dataSocket = plain;
          resolve(plain);
          return;
        }
        const secure: Accepted = new tls.TLSSocket(socket, { isServer: true, secureContext });
        secure.on('error', () => {});
        this.dataSocket = secure;
        secure.once('secure', () => {
          secure.connected = true;
          resolve(secure);
        });
        secure.once('close', () => reject(new Error('data connection closed during the TLS handshake')));
      });
    });
    this.ready.catch(() => {});
    this.timer = setTimeout(() => {
      this.stopListening();
      fail(new Error('no data connection'));
    }, listenTimeoutMs);
  }

  waitForConnection(options: { timeout?: number } = {}): PromiseLike<net.Socket> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      this.ready,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('data connection timed out')), options.timeout ?? 5000);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /** Closes the listener (the port is free again); an accepted data connection stays. */
  private stopListening(): void {
    clearTimeout(this.timer);
    this.dataServer?.close();
    this.dataServer = null;
    if (!this.released) {
      this.released = true;
      this.onRelease();
    }
  }

  end(): void {
    this.stopListening();
    this.dataSocket?.destroy();
    this.dataSocket = null;
    this.type = false;
    if (this.conn.connector === this) this.conn.connector = new BaseConnector(this.conn);
  }
}
