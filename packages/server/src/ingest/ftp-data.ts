import dns from 'node:dns/promises';
import net from 'node:net';
import type tls from 'node:tls';
import type { Logger } from 'pino';
import type { IngestFileSystem } from './ftp-filesystem.ts';
import { PassiveConnector, PassiveLimitError, type PassivePool } from './ftp-passive.ts';
import { type FtpSrvConnection, formatListLine } from './ftp-srv-internals.ts';
import { normalizeAddress } from './remote-address.ts';

/**
 * Data connections for PASV/EPSV, STOR and LIST/NLST.
 *
 * ftp-srv only counts a TLS data connection once its handshake is done, and only then sends
 * 150. Many FTPS clients (lftp, and GnuTLS/OpenSSL based camera firmware) do it the other way
 * round, like vsftpd and ProFTPD expect: TCP connect, wait for 150, then handshake. Both
 * orders deadlock-free: we note the TCP accept ourselves, send 150, then wait for the handshake.
 * The listeners come from the shared pool of ftp-passive.ts.
 */

/** PASV (227 with an IPv4 address) or EPSV (229 with the port only), on a port of the shared pool. */
export async function openPassive(
  conn: FtpSrvConnection,
  kind: 'PASV' | 'EPSV',
  passive: {
    pool: PassivePool;
    accountId: number;
    teamId: number;
    secureContext: tls.SecureContext;
    pasvAddress?: string;
  },
  log: Logger,
): Promise<void> {
  let address = '';
  const remote = normalizeAddress(conn.commandSocket.remoteAddress);
  if (kind === 'PASV') {
    const local = normalizeAddress(conn.commandSocket.localAddress);
    const isLoopback = remote === '127.0.0.1' || remote === '::1';
    // Clients on this machine get the address they used; everyone else PASV_ADDRESS if set.
    address = !isLoopback && passive.pasvAddress ? passive.pasvAddress : local;
    if (!net.isIPv4(address)) {
      await conn.reply(425, 'PASV needs IPv4; use EPSV');
      return;
    }
  }
  endData(conn); // one listener per session: a previous PASV's is closed now
  try {
    const connector = await passive.pool.listen(
      conn,
      { accountId: passive.accountId, teamId: passive.teamId, address: remote },
      passive.secureContext,
    );
    // The client may have gone while the PASV waited at a cap: its listener goes back at once.
    if (conn.commandSocket.destroyed) {
      connector.end();
      return;
    }
    conn.connector = connector;
    const port = connector.port;
    if (kind === 'PASV') {
      await conn.reply(
        227,
        `Entering Passive Mode (${address.replace(/\./g, ',')},${port >> 8},${port & 255})`,
      );
    } else {
      await conn.reply(229, `Entering Extended Passive Mode (|||${port}|)`);
    }
  } catch (err) {
    if (!(err instanceof PassiveLimitError)) log.warn({ err }, `${kind} failed`);
    endData(conn);
    await conn.reply(
      425,
      err instanceof PassiveLimitError ? err.message : 'Cannot open a passive data connection',
    );
  }
}

/**
 * Closes the data connection: its listener (the port goes back to the pool) and its socket.
 * Also for ftp-srv's own connectors (active mode), whose listener's later 'close' event would
 * otherwise replace the connector a following PASV just opened: so detach that first.
 * The socket is destroyed, not ended: we never write to it after a transfer.
 */
export function endData(conn: FtpSrvConnection): void {
  const connector = conn.connector;
  connector.dataServer?.removeAllListeners('close');
  connector.dataSocket?.destroy();
  connector.end();
}

export class DataConnectionError extends Error {}

function within<T>(promise: PromiseLike<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    Promise.resolve(promise),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DataConnectionError(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Waits for the client's data connection, sends 150, and returns the (TLS) socket, paused.
 * Throws DataConnectionError (the 150 may already have gone out; an error reply may follow it).
 */
export async function openDataConnection(conn: FtpSrvConnection, message: string): Promise<net.Socket> {
  const connector = conn.connector;
  if (!connector.type) throw new DataConnectionError('No data connection; send PASV or EPSV first');
  if (connector instanceof PassiveConnector)
    await within(connector.accepted, 10_000, 'Data connection not opened');
  await conn.reply(150, message);
  try {
    return await within(connector.waitForConnection({ timeout: 15_000 }), 16_000, 'Data connection failed');
  } catch {
    throw new DataConnectionError('Data connection failed (TLS handshake?)');
  }
}

/** LIST and NLST with our data-connection order; the listing comes from the backend via the fs. */
export async function sendListing(
  conn: FtpSrvConnection,
  fs: IngestFileSystem,
  arg: string | null,
  namesOnly: boolean,
) {
  let lines: string[];
  try {
    const target = await fs.get(arg ?? '.');
    const entries = target.isDirectory() ? await fs.list(arg ?? '.') : [target];
    lines = entries.map((e) => (namesOnly ? e.name : formatListLine(e)));
  } catch (err) {
    await conn.reply(450, err instanceof Error ? err.message : 'No such directory');
    endData(conn);
    return;
  }
  try {
    const socket = await openDataConnection(conn, 'Here comes the listing');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.end(lines.map((l) => `${l}\r\n`).join(''), () => resolve());
      socket.resume();
    });
    await conn.reply(226, 'Listing sent');
  } catch (err) {
    await conn.reply(425, err instanceof DataConnectionError ? err.message : 'Listing failed');
  } finally {
    endData(conn);
  }
}

/** PASV_ADDRESS as an IPv4 address (a host name is resolved once at start). */
export async function resolveIPv4(host: string): Promise<string> {
  if (net.isIPv4(host)) return host;
  const { address } = await dns.lookup(host, { family: 4 });
  return address;
}
