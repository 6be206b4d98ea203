import type net from 'node:net';
import type tls from 'node:tls';
import type { AddressSlots } from './address-slots.ts';
import { cappedSession, type IngestAccount, type IngestSession } from './backend.ts';
import { readCommandsInOrder } from './ftp-command-reader.ts';
import { endData, openPassive, sendListing } from './ftp-data.ts';
import { IngestFileSystem } from './ftp-filesystem.ts';
import type { FtpIngestOptions } from './ftp-options.ts';
import type { PassivePool } from './ftp-passive.ts';
import type { FtpSrvConnection, ParsedCommand, ReplyLetter, ReplyOptions } from './ftp-srv-internals.ts';
import { replyText } from './ftp-srv-internals.ts';
import { startsTls, upgradeToTls } from './ftp-tls-upgrade.ts';
import { type ActiveUpload, startUpload } from './ftp-upload.ts';
import { checkIngestLogin, LoginRefusedError } from './ingest-login.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { normalizeAddress } from './remote-address.ts';

const SETTLE_MS = 25;
const REFUSED: Record<string, string> = {
  APPE: 'APPE (append/resume) is not supported; upload the whole file with STOR',
  STOU: 'STOU is not supported; use STOR',
};

/** What every FTP session of one ingest shares (ftp-server.ts makes it). */
export interface FtpSessionShared {
  options: FtpIngestOptions;
  throttle: LoginThrottle;
  pool: PassivePool;
  slots: AddressSlots;
  secureContext: tls.SecureContext;
  pasvAddress?: string;
  /** The open sessions by ftp-srv connection id (its 'login' event names the connection). */
  sessions: Map<string, FtpSession>;
}

/**
 * One control connection, from its first byte to its close: the commands we answer ourselves
 * (login, PASV, LIST, STOR, REST, ABOR, the refusals), the rest handed to ftp-srv, and every
 * command and reply in the project's connection log (PASS masked).
 */
export class FtpSession {
  account?: IngestAccount;
  fs?: IngestFileSystem;
  upload?: ActiveUpload;
  loginFailures = 0;
  closed = false;

  constructor(
    readonly conn: FtpSrvConnection,
    /** The plain command socket (conn.commandSocket becomes the TLS socket after AUTH TLS). */
    readonly raw: net.Socket,
    readonly address: string,
    readonly session: IngestSession,
    private readonly shared: FtpSessionShared,
  ) {}

  private get options() {
    return this.shared.options;
  }

  async login(username: string, password: string): Promise<IngestFileSystem> {
    const loginDeps = {
      throttle: this.shared.throttle,
      backend: this.options.backend,
      log: this.options.log,
    };
    try {
      this.account = await checkIngestLogin(loginDeps, this.session, this.address, username, password);
    } catch (err) {
      if (err instanceof LoginRefusedError) {
        this.loginFailures++;
        throw err;
      }
      this.options.log.error({ err }, 'ingest login failed');
      throw new Error('Login not possible at the moment; please try again');
    }
    this.fs = new IngestFileSystem(this.options.backend, this.account, this.options.log);
    return this.fs;
  }

  async startTls(): Promise<void> {
    if (this.closed) return;
    upgradeToTls(this.conn, this.raw, this.shared.secureContext, this.session);
  }

  async handleAbort(): Promise<void> {
    const upload = this.upload;
    if (!upload) {
      endData(this.conn);
      await this.conn.reply(225, 'No transfer to abort');
      return;
    }
    upload.abort('ABOR received');
    await upload.done;
    await this.conn.reply(226, 'ABOR successful');
  }

  async dispatch(command: ParsedCommand): Promise<void> {
    const { conn, options } = this;
    if (this.closed) return;
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
        this.session.login({ username: command.arg, account: null, reason: 'TLS required' });
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
        if (this.account) {
          const { pool, secureContext, pasvAddress } = this.shared;
          await openPassive(
            conn,
            directive,
            {
              pool,
              accountId: this.account.accountId,
              teamId: this.account.teamId,
              secureContext,
              pasvAddress,
            },
            options.log,
          );
        }
        return;
      case 'LIST':
      case 'NLST':
        if (this.fs) await sendListing(conn, this.fs, command.arg, directive === 'NLST');
        return;
      case 'STOR':
        await this.store(command.arg);
        return;
    }
    await conn.commands.handle(command);
    if (
      directive === 'PASS' &&
      !conn.authenticated &&
      this.loginFailures >= (options.maxLoginFailuresPerConnection ?? 3)
    ) {
      await conn.close(421, 'Too many failed logins');
    }
  }

  private async store(arg: string | null): Promise<void> {
    const { conn, fs, account, options } = this;
    if (!fs || !account) return;
    this.upload = startUpload(
      {
        conn,
        fs,
        backend: options.backend,
        account,
        protocol: conn.secure ? 'ftps' : 'ftp',
        remoteAddress: this.address,
        maxUploadBytes: options.maxUploadBytes,
        dataIdleMs: options.dataIdleTimeoutMs ?? 60_000,
        settleMs: SETTLE_MS,
        controlClosed: () => this.closed || conn.commandSocket.destroyed,
        log: options.log,
        logInfo: (text) => this.session.log({ at: new Date(), kind: 'info', text }),
        logError: (text) => this.session.log({ at: new Date(), kind: 'error', text }),
      },
      arg,
    );
    try {
      await this.upload.done;
    } finally {
      this.upload = undefined;
    }
  }
}

/**
 * Takes over a connection ftp-srv accepted: one of the address's connection slots (or 421
 * before the greeting), its session in the project's log, the reply log, the idle timer and
 * our command reader. Undefined when the address has no slot left.
 */
export function attachFtpSession(
  conn: FtpSrvConnection,
  implicitTls: boolean,
  shared: FtpSessionShared,
): FtpSession | undefined {
  const { options } = shared;
  const raw = conn.commandSocket;
  const address = normalizeAddress(raw.remoteAddress);
  const release = shared.slots.take(address);
  if (!release) {
    // Before the greeting: one client cannot hold every connection slot of the process.
    raw.removeAllListeners('data');
    raw.end('421 Too many connections from your address; try again later\r\n');
    setTimeout(() => raw.destroy(), 1000).unref();
    return undefined;
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
  const state = new FtpSession(conn, raw, address, session, shared);
  shared.sessions.set(conn.id, state);
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
    shared.sessions.delete(conn.id);
    note('info', 'connection closed');
    session.end();
  });

  readCommandsInOrder(raw, conn, {
    received(command, line) {
      armIdle();
      note('command', command.directive === 'PASS' ? 'PASS ****' : line.slice(0, 512));
    },
    abort: () => state.handleAbort(),
    switchesToTls: (command) => startsTls(command) && !conn.secure,
    run: (command, tlsNow) => (tlsNow ? state.startTls() : state.dispatch(command)),
    failed(err) {
      options.log.error({ err }, 'ftp command failed');
      note('error', err instanceof Error ? err.message : String(err));
    },
    refused: (text) => note('error', text),
  });
  return state;
}
