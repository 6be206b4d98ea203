import type net from 'node:net';
import tlsModule from 'node:tls';
import type { IngestSession } from './backend.ts';
import type { FtpSrvConnection, ParsedCommand } from './ftp-srv-internals.ts';

export const startsTls = (command: ParsedCommand): boolean =>
  command.directive === 'AUTH' && command.arg?.trim().toUpperCase() === 'TLS';

/**
 * AUTH TLS, ours instead of ftp-srv's: it wraps the socket only after the 234 has been
 * written (a later event-loop turn), so a fast client's TLS hello could be read as a command
 * first. Here the reply is written and the socket wrapped in the same synchronous step,
 * before anything more is read. `raw` is the plain command socket.
 */
export function upgradeToTls(
  conn: FtpSrvConnection,
  raw: net.Socket,
  secureContext: tlsModule.SecureContext,
  session: IngestSession,
): void {
  const text = '234 AUTH TLS OK, go ahead';
  raw.write(`${text}\r\n`);
  const secure = new tlsModule.TLSSocket(raw, { isServer: true, secureContext });
  // ftp-srv and our reader listen on `raw`: forward the clear-text side's events to it, as ftp-srv's AUTH does.
  for (const event of ['data', 'timeout', 'end', 'close', 'drain', 'error']) {
    secure.on(event, (...args: unknown[]) => raw.emit(event, ...args));
  }
  secure.once('error', () => raw.destroy());
  conn.commandSocket = secure;
  conn.secure = true;
  session.log({ at: new Date(), kind: 'reply', text });
  session.tlsStarted();
}
