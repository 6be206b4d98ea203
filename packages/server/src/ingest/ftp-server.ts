import type net from 'node:net';
import tlsModule from 'node:tls';
import FtpSrv from 'ftp-srv';
import { AddressSlots } from './address-slots.ts';
import { cappedSession, type IngestAccount, type IngestSession } from './backend.ts';
import { endData, openPassive, resolveIPv4, sendListing } from './ftp-data.ts';
import { IngestFileSystem } from './ftp-filesystem.ts';
import type { FtpIngestOptions } from './ftp-options.ts';
import { PassivePool } from './ftp-passive.ts';
import {
  type FtpSrvConnection,
  listeningPort,
  type ParsedCommand,
  type ReplyLetter,
  type ReplyOptions,
  replyText,
  withoutSignalHandlers,
} from './ftp-srv-internals.ts';
import { type ActiveUpload, startUpload } from './ftp-upload.ts';
import { checkIngestLogin, LoginRefusedError } from './ingest-login.ts';
import { LoginThrottle } from './login-throttle.ts';
import { normalizeAddress } from './remote-address.ts';
import { cameraTlsOptions } from './tls.ts';

/**
 * The FTP ingest: ftp-srv for the protocol plumbing (listening, implicit TLS,
 * passive/active data connections, LIST formatting, most commands) with our own pieces where
 * its behaviour does not fit cameras or our guarantees:
 * - commands are read line-buffered and run one after another (ftp-srv splits each TCP chunk
 *   on its own and runs chunks concurrently), except ABOR, which must reach a running STOR;
 * - STOR is ours (ftp-upload.ts): 226 only after the backend stored and recorded the file;
 * - APPE/STOU and REST > 0 are refused cleanly (no partial or appended files), RETR, SITE
 *   and RMD are not offered;
 * - PASV answers the address the client connected to (or PASV_ADDRESS), not one fixed URL,
 *   from a port pool capped per account and address (ftp-passive.ts);
 * - STOR and LIST/NLST send 150 once the data connection's TCP is up, before its TLS
 *   handshake (ftp-data.ts), as lftp and many camera TLS stacks expect;
 * - AUTH TLS is ours (race-free switch to TLS, see startTls);
 * - logins go through the shared LoginThrottle (ingest-login.ts), plain ones are refused with
 *   REQUIRE_TLS; every command and reply goes to the project's connection log (PASS masked).
 */

export interface FtpIngest {
  port: number;
  implicitPort?: number;
  close(): Promise<void>;
}

const MAX_LINE_BYTES = 8192;
const MAX_QUEUED_COMMANDS = 64;
const SETTLE_MS = 25;
const REFUSED: Record<string, string> = {
  APPE: 'APPE (append/resume) is not supported; upload the whole file with STOR',
  STOU: 'STOU is not supported; use STOR',
};

export type { FtpIngestOptions };

export async function startFtpIngest(options: FtpIngestOptions): Promise<FtpIngest> {
  const loginDeps = {
    throttle: options.loginThrottle ?? new LoginThrottle(),
    backend: options.backend,
    log: options.log,
  };
  const pasvAddress = options.pasvAddress ? await resolveIPv4(options.pasvAddress) : undefined;
  const tls = cameraTlsOptions(options.tls);
  const secureContext = tlsModule.createSecureContext(tls);
  const pool = new PassivePool(options.pasvRange, options.host, {
    perAccount: 8,
    perAddress: 16,
    listenTimeoutMs: 20_000,
    ...options.passiveLimits,
  });
  const slots = new AddressSlots(options.maxConnectionsPerAddress ?? 100);
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
        attachConnection(connection, implicitTls);
      },
    );
    server.on('login', ({ connection, username, password }, resolve, reject) => {
      const state = states.get(connection.id);
      if (!state) return reject(new Error('Connection is closing'));
      login(state, username, password).then(
        (fs) => resolve({ fs: fs as never }),
        (err: Error) => reject(err),
      );
    });
  };

  interface ConnState {
    conn: FtpSrvConnection;
    /** The plain command socket (conn.commandSocket becomes the TLS socket after AUTH TLS). */
    raw: net.Socket;
    address: string;
    session: IngestSession;
    account?: IngestAccount;
    fs?: IngestFileSystem;
    upload?: ActiveUpload;
    loginFailures: number;
    closed: boolean;
    wasSecure: boolean;
  }
  const states = new Map<string, ConnState>();

  async function login(state: ConnState, username: string, password: string): Promise<IngestFileSystem> {
    try {
      state.account = await checkIngestLogin(loginDeps, state.session, state.address, username, password);
    } catch (err) {
      if (err instanceof LoginRefusedError) {
        state.loginFailures++;
        throw err;
      }
      options.log.error({ err }, 'ingest login failed');
      throw new Error('Login not possible at the moment; please try again');
    }
    state.fs = new IngestFileSystem(options.backend, state.account, options.log);
    return state.fs;
  }

  function attachConnection(conn: FtpSrvConnection, implicitTls: boolean) {
    const raw = conn.commandSocket;
    const address = normalizeAddress(raw.remoteAddress);
    const release = slots.take(address);
    if (!release) {
      // Before the greeting: one client cannot hold every connection slot of the process.
      raw.removeAllListeners('data');
      raw.end('421 Too many connections from your address; try again later\r\n');
      setTimeout(() => raw.destroy(), 1000).unref();
      return;
    }
    raw.once('close', release);
    const session = cappedSession(
      options.backend.sessionStarted({
        protocol: implicitTls ? 'ftps' : 'ftp',
        remoteAddress: address,
        tls: implicitTls,
        startedAt: new Date(),
      }),
    );
    const state: ConnState = {
      conn,
      raw,
      address,
      session,
      loginFailures: 0,
      closed: false,
      wasSecure: implicitTls,
    };
    states.set(conn.id, state);
    const note = (kind: 'command' | 'reply' | 'error' | 'info', text: string) =>
      session.log({ at: new Date(), kind, text });

    const originalReply = conn.reply.bind(conn);
    conn.reply = (opts: number | ReplyOptions, ...letters: Array<string | ReplyLetter | undefined>) => {
      const text = replyText(opts, letters);
      if (text) note('reply', text);
      return originalReply(opts, ...letters);
    };

    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () => {
          if (state.upload) return armIdle();
          note('info', 'idle timeout');
          void conn.close(421, 'Idle timeout, closing connection');
        },
        options.idleTimeoutMs ?? 5 * 60_000,
      );
    };
    armIdle();

    raw.once('close', () => {
      state.closed = true;
      clearTimeout(idle);
      state.upload?.abort('command connection closed');
      endData(conn);
      states.delete(conn.id);
      note('info', 'connection closed');
      session.end();
    });

    // Replace ftp-srv's chunk-wise reader with a line-buffered one feeding a serial queue.
    for (const listener of raw.listeners('data'))
      raw.removeListener('data', listener as (...args: unknown[]) => void);
    let buffered = Buffer.alloc(0);
    let queue: Promise<void> = Promise.resolve();
    let queued = 0;
    raw.on('data', (chunk: Buffer | string) => {
      buffered = Buffer.concat([buffered, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
      for (let at = buffered.indexOf(0x0a); at >= 0; at = buffered.indexOf(0x0a)) {
        const line = buffered
          .subarray(0, at)
          .toString(conn.encoding === 'ascii' ? 'latin1' : 'utf8')
          .replace(/\r$/, '');
        buffered = buffered.subarray(at + 1);
        if (line.trim() === '') continue;
        armIdle();
        const command = conn.commands.parse(line);
        note('command', command.directive === 'PASS' ? 'PASS ****' : line.slice(0, 512));
        if (command.directive === 'ABOR') {
          // ABOR must overtake the queue: it is meant for the transfer running in it.
          void handleAbort(state);
          continue;
        }
        if (++queued > MAX_QUEUED_COMMANDS) {
          note('error', 'too many queued commands');
          void conn.close(421, 'Too many commands');
          raw.destroy();
          return;
        }
        const tlsNow = startsTls(command) && !conn.secure;
        queue = queue
          .then(() => (tlsNow ? startTls(state) : dispatch(state, command)))
          .catch((err: unknown) => {
            options.log.error({ err }, 'ftp command failed');
            note('error', err instanceof Error ? err.message : String(err));
          })
          .finally(() => {
            queued--;
          });
        // Nothing may follow AUTH TLS in plain text: the client waits for 234, then speaks TLS.
        if (tlsNow) break;
      }
      if (buffered.length > MAX_LINE_BYTES) {
        note('error', 'command line too long');
        void conn.close(500, 'Command line too long');
      }
    });
  }

  /**
   * AUTH TLS, ours instead of ftp-srv's: it wraps the socket only after the 234 has been
   * written (a later event-loop turn), so a fast client's TLS hello could be read as a command
   * first. Here the reply is written and the socket wrapped in the same synchronous step,
   * before anything more is read.
   */
  async function startTls(state: ConnState): Promise<void> {
    const { conn, raw } = state;
    if (state.closed) return;
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
    state.wasSecure = true;
    state.session.log({ at: new Date(), kind: 'reply', text });
    state.session.tlsStarted();
  }

  async function handleAbort(state: ConnState): Promise<void> {
    const upload = state.upload;
    if (!upload) {
      endData(state.conn);
      await state.conn.reply(225, 'No transfer to abort');
      return;
    }
    upload.abort('ABOR received');
    await upload.done;
    await state.conn.reply(226, 'ABOR successful');
  }

  async function dispatch(state: ConnState, command: ParsedCommand): Promise<void> {
    const { conn } = state;
    if (state.closed) return;
    const directive = command.directive;
    const needsLogin = ['STOR', 'APPE', 'STOU', 'REST', 'PASV', 'EPSV', 'LIST', 'NLST'].includes(directive);
    if (needsLogin && !conn.authenticated) {
      await conn.reply(530, `Command requires authentication: ${directive}`);
      return;
    }
    if (REFUSED[directive]) {
      await conn.reply(502, REFUSED[directive]);
      return;
    }
    if (options.requireTls && !conn.secure && (directive === 'USER' || directive === 'PASS')) {
      // Refused before a password crosses the wire in clear; the project's log shows why.
      if (directive === 'USER' && command.arg)
        state.session.login({ username: command.arg, account: null, reason: 'TLS required' });
      await conn.reply(530, 'TLS required; use FTPS (AUTH TLS or implicit FTPS)');
      return;
    }
    switch (directive) {
      case 'USER':
        // ftp-srv refuses a second USER after a failed PASS; clients retry that way.
        if (!conn.authenticated) conn.username = undefined;
        break;
      case 'REST':
        if (command.arg?.trim() === '0') await conn.reply(350, 'Restarting at 0');
        else await conn.reply(504, 'Resuming uploads is not supported; upload the whole file again');
        return;
      case 'PASV':
      case 'EPSV':
        if (state.account)
          await openPassive(
            conn,
            directive,
            { pool, accountId: state.account.accountId, secureContext, pasvAddress },
            options.log,
          );
        return;
      case 'LIST':
      case 'NLST':
        if (state.fs) await sendListing(conn, state.fs, command.arg, directive === 'NLST');
        return;
      case 'STOR':
        await store(state, command.arg);
        return;
    }
    await conn.commands.handle(command);
    if (
      directive === 'PASS' &&
      !conn.authenticated &&
      state.loginFailures >= (options.maxLoginFailuresPerConnection ?? 3)
    ) {
      await conn.close(421, 'Too many failed logins');
    }
  }

  async function store(state: ConnState, arg: string | null): Promise<void> {
    const { conn, fs, account } = state;
    if (!fs || !account) return;
    state.upload = startUpload(
      {
        conn,
        fs,
        backend: options.backend,
        account,
        protocol: conn.secure ? 'ftps' : 'ftp',
        remoteAddress: state.address,
        maxUploadBytes: options.maxUploadBytes,
        dataIdleMs: options.dataIdleTimeoutMs ?? 60_000,
        settleMs: SETTLE_MS,
        controlClosed: () => state.closed || conn.commandSocket.destroyed,
        log: options.log,
        logInfo: (text) => state.session.log({ at: new Date(), kind: 'info', text }),
        logError: (text) => state.session.log({ at: new Date(), kind: 'error', text }),
      },
      arg,
    );
    try {
      await state.upload.done;
    } finally {
      state.upload = undefined;
    }
  }

  for (const server of servers) wire(server, server === implicit);
  await explicit.listen();
  if (implicit) await implicit.listen();

  return {
    port: listeningPort(explicit),
    implicitPort: implicit ? listeningPort(implicit) : undefined,
    async close() {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

function startsTls(command: ParsedCommand): boolean {
  return command.directive === 'AUTH' && command.arg?.trim().toUpperCase() === 'TLS';
}
