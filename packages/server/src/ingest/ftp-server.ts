import tlsModule from 'node:tls';
import FtpSrv from 'ftp-srv';
import { AddressSlots } from './address-slots.ts';
import { resolveIPv4 } from './ftp-data.ts';
import type { FtpIngestOptions } from './ftp-options.ts';
import { PassivePool } from './ftp-passive.ts';
import { attachFtpSession, type FtpSessionShared } from './ftp-session.ts';
import { type FtpSrvConnection, listeningPort, withoutSignalHandlers } from './ftp-srv-internals.ts';
import { LoginThrottle } from './login-throttle.ts';
import { cameraTlsOptions, type TlsMaterial } from './tls.ts';

/**
 * The FTP ingest: ftp-srv for the protocol plumbing (listening, implicit TLS,
 * passive/active data connections, LIST formatting, most commands) with our own pieces where
 * its behaviour does not fit cameras or our guarantees. This file starts the listeners; each
 * control connection is an FtpSession (ftp-session.ts):
 * - commands are read line-buffered and run one after another (ftp-command-reader.ts; ftp-srv
 *   splits each TCP chunk on its own and runs chunks concurrently), except ABOR, which must
 *   reach a running STOR;
 * - STOR is ours (ftp-upload.ts): 226 only after the backend stored and recorded the file;
 * - APPE/STOU and REST > 0 are refused cleanly (no partial or appended files), RETR, SITE
 *   and RMD are not offered;
 * - PASV answers the address the client connected to (or PASV_ADDRESS), not one fixed URL,
 *   from a port pool capped per account and address (ftp-passive.ts);
 * - STOR and LIST/NLST send 150 once the data connection's TCP is up, before its TLS
 *   handshake (ftp-data.ts), as lftp and many camera TLS stacks expect;
 * - AUTH TLS is ours (race-free switch to TLS, ftp-tls-upgrade.ts);
 * - logins go through the shared LoginThrottle (ingest-login.ts), plain ones are refused with
 *   REQUIRE_TLS; every command and reply goes to the project's connection log (PASS masked).
 */

export interface FtpIngest {
  port: number;
  implicitPort?: number;
  /** A renewed certificate for new connections (open ones keep theirs); throws on a bad pair. */
  reloadTls(material: TlsMaterial): void;
  close(): Promise<void>;
}

export type { FtpIngestOptions };

export async function startFtpIngest(options: FtpIngestOptions): Promise<FtpIngest> {
  const pasvAddress = options.pasvAddress ? await resolveIPv4(options.pasvAddress) : undefined;
  const tls = cameraTlsOptions(options.tls);
  const secureContext = tlsModule.createSecureContext(tls);
  const pool = new PassivePool(options.pasvRange, options.host, {
    perAccount: 32,
    perAddress: 16,
    // Half the range: one team, however many accounts and addresses, leaves the rest to others.
    perTeam: Math.max(1, Math.floor((options.pasvRange[1] - options.pasvRange[0] + 1) / 2)),
    waitMs: 2000,
    listenTimeoutMs: 20_000,
    ...options.passiveLimits,
  });
  const shared: FtpSessionShared = {
    options,
    throttle: options.loginThrottle ?? new LoginThrottle(),
    pool,
    slots: new AddressSlots(options.maxConnectionsPerAddress ?? 100),
    secureContext,
    pasvAddress,
    sessions: new Map(),
  };
  // ftp-srv logs every 550 at error level; keep it quiet unless we are debugging.
  const srvLog = options.log.child(
    { component: 'ftp-srv' },
    { level: options.log.isLevelEnabled('debug') ? options.log.level : 'fatal' },
  );

  const common = {
    pasv_min: options.pasvRange[0],
    pasv_max: options.pasvRange[1],
    tls,
    greeting: 'PhotoRelay FTP',
    blacklist: ['RETR', 'SITE', 'RMD'],
    log: srvLog,
  };
  const explicit = withoutSignalHandlers(
    () => new FtpSrv({ ...common, url: `ftp://${options.host}:${options.port}` }),
  );
  const servers = [explicit];
  let implicit: FtpSrv | undefined;
  if (options.implicitTlsPort !== undefined) {
    const port = options.implicitTlsPort;
    implicit = withoutSignalHandlers(() => new FtpSrv({ ...common, url: `ftps://${options.host}:${port}` }));
    servers.push(implicit);
  }

  const wire = (server: FtpSrv, implicitTls: boolean) => {
    server.on('client-error', ({ connection, context, error }) => {
      options.log.debug({ err: error, context, id: connection.id }, 'ftp client error');
    });
    (server as unknown as NodeJS.EventEmitter).on(
      'connect',
      ({ connection }: { connection: FtpSrvConnection }) => {
        attachFtpSession(connection, implicitTls, shared);
      },
    );
    server.on('login', ({ connection, username, password }, resolve, reject) => {
      const session = shared.sessions.get(connection.id);
      if (!session) return reject(new Error('Connection is closing'));
      session.login(username, password).then(
        (fs) => resolve({ fs: fs as never }),
        (err: Error) => reject(err),
      );
    });
  };

  for (const server of servers) wire(server, server === implicit);
  await explicit.listen();
  if (implicit) await implicit.listen();

  return {
    port: listeningPort(explicit),
    implicitPort: implicit ? listeningPort(implicit) : undefined,
    reloadTls(material) {
      const renewed = cameraTlsOptions(material);
      // Sessions read the shared context at AUTH TLS and for each data connection.
      shared.secureContext = tlsModule.createSecureContext(renewed);
      if (implicit) (implicit as unknown as { server: tlsModule.Server }).server.setSecureContext(renewed);
    },
    async close() {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
