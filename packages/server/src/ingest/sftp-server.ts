import type net from 'node:net';
import type { Logger } from 'pino';
import ssh2, { type AuthContext, type Connection, type SFTPWrapper } from 'ssh2';
import { AddressSlots } from './address-slots.ts';
import { cappedSession, type IngestAccount, type IngestBackend } from './backend.ts';
import { checkIngestLogin, LoginRefusedError } from './ingest-login.ts';
import { LoginThrottle } from './login-throttle.ts';
import { normalizeAddress } from './remote-address.ts';
import { ReorderBudget } from './sftp-reorder-budget.ts';
import { SftpRequests } from './sftp-requests.ts';
import { loadOrCreateHostKeys } from './ssh-host-keys.ts';

/**
 * The SFTP ingest: an ssh2 server that offers only the SFTP subsystem (no shell, exec or
 * forwarding), password or keyboard-interactive login through the backend and the shared
 * LoginThrottle, and the SFTP requests of sftp-requests.ts.
 */

export interface SftpIngestOptions {
  /** 0 = any free port (tests). */
  port: number;
  host: string;
  /** Folder for the host keys, made once (DATA_DIR/ssh). */
  hostKeyDir: string;
  maxUploadBytes: number;
  backend: IngestBackend;
  log: Logger;
  loginThrottle?: LoginThrottle;
  /** Connection without any SFTP request (and no open upload) this long is closed. Default 5 minutes. */
  idleTimeoutMs?: number;
  /** An upload that receives no data this long is discarded (its CLOSE fails). Default 60 s. */
  uploadStallMs?: number;
  /** Failed logins on one connection before it is closed. Default 3. */
  maxLoginFailuresPerConnection?: number;
  /** Connections from one address at once. Default 100. */
  maxConnectionsPerAddress?: number;
  /**
   * Out-of-order write bytes buffered per connection and in all, and open handles per connection.
   * Defaults 8 MiB, 64 MiB, 32: real clients send writes in order (a few MiB in flight); before,
   * 16 MiB per handle and no handle cap let 10 connections x 10 handles hold 1.5 GiB.
   */
  limits?: Partial<{
    reorderBytesPerConnection: number;
    reorderBytesTotal: number;
    handlesPerConnection: number;
  }>;
}

export interface SftpIngest {
  port: number;
  /** Bytes now held for out-of-order writes, all connections together. */
  bufferedBytes(): number;
  close(): Promise<void>;
}

export async function startSftpIngest(options: SftpIngestOptions): Promise<SftpIngest> {
  const loginDeps = {
    throttle: options.loginThrottle ?? new LoginThrottle(),
    backend: options.backend,
    log: options.log,
  };
  const hostKeys = loadOrCreateHostKeys(options.hostKeyDir);
  const clients = new Set<Connection>();
  const limits = {
    reorderBytesPerConnection: 8 * 1024 * 1024,
    reorderBytesTotal: 64 * 1024 * 1024,
    handlesPerConnection: 32,
    ...options.limits,
  };
  const reorderTotal = new ReorderBudget(limits.reorderBytesTotal);
  const slots = new AddressSlots(options.maxConnectionsPerAddress ?? 100);

  const server = new ssh2.Server(sshServerConfig(hostKeys), (client, info) => {
    const address = normalizeAddress(info.ip);
    const release = slots.take(address);
    if (!release) {
      client.on('error', () => {});
      client.end();
      return;
    }
    clients.add(client);
    const reorder = new ReorderBudget(limits.reorderBytesPerConnection, reorderTotal);
    const handles = { open: 0, max: limits.handlesPerConnection };
    const session = cappedSession(
      options.backend.sessionStarted({
        protocol: 'sftp',
        remoteAddress: address,
        tls: true,
        startedAt: new Date(),
      }),
    );
    const note = (kind: 'command' | 'reply' | 'error' | 'info', text: string) =>
      session.log({ at: new Date(), kind, text });
    note('info', `client ${info.header.versions.software}`);
    let account: IngestAccount | undefined;
    let failures = 0;
    const requests: SftpRequests[] = [];

    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () => {
          if (requests.some((r) => r.hasOpenUploads())) return touch();
          note('info', 'idle timeout');
          client.end();
        },
        options.idleTimeoutMs ?? 5 * 60_000,
      );
    };
    touch();

    client.on('authentication', (ctx) => {
      touch();
      void authenticate(ctx).catch((err: unknown) => {
        options.log.error({ err }, 'sftp authentication failed');
        ctx.reject();
      });
    });

    async function authenticate(ctx: AuthContext): Promise<void> {
      if (ctx.method === 'password') return check(ctx, ctx.username, ctx.password);
      if (ctx.method === 'keyboard-interactive') {
        // Some clients (and camera firmware) only offer keyboard-interactive for passwords.
        ctx.prompt([{ prompt: 'Password: ', echo: false }], (answers) => {
          void check(ctx, ctx.username, answers[0] ?? '').catch(() => ctx.reject());
        });
        return;
      }
      ctx.reject(['password', 'keyboard-interactive']);
    }

    async function check(ctx: AuthContext, username: string, password: string): Promise<void> {
      note('command', `login ${username} (${ctx.method})`);
      let found: IngestAccount;
      try {
        found = await checkIngestLogin(loginDeps, session, address, username, password);
      } catch (err) {
        if (!(err instanceof LoginRefusedError)) throw err;
        note('reply', err.message);
        return refuse(ctx);
      }
      account = found;
      note('reply', 'login ok');
      ctx.accept();
    }

    function refuse(ctx: AuthContext): void {
      failures++;
      ctx.reject(['password', 'keyboard-interactive']);
      if (failures >= (options.maxLoginFailuresPerConnection ?? 3)) client.end();
    }

    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const sshSession = acceptSession();
        sshSession.on('sftp', (acceptSftp) => {
          if (!account) return;
          const sftp: SFTPWrapper = acceptSftp();
          note('info', 'sftp started');
          requests.push(
            new SftpRequests(sftp, {
              backend: options.backend,
              account,
              remoteAddress: address,
              maxUploadBytes: options.maxUploadBytes,
              log: options.log,
              note,
              touch,
              reorder,
              handles,
              stallMs: options.uploadStallMs ?? 60_000,
            }),
          );
        });
        // Everything else (shell, exec, pty, env) is refused: ssh2 answers failure when nobody listens.
      });
    });

    client.on('error', (err) => {
      note('error', err.message);
      options.log.debug({ err }, 'sftp client error');
    });
    client.on('close', () => {
      clearTimeout(idle);
      clients.delete(client);
      release();
      for (const r of requests) r.abortAll('connection closed');
      note('info', 'connection closed');
      session.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  server.on('error', (err: Error) => options.log.error({ err }, 'sftp server error'));

  return {
    port: (server.address() as net.AddressInfo).port,
    bufferedBytes: () => reorderTotal.used,
    async close() {
      for (const c of clients) c.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * No SHA-1: MACs without hmac-sha1, and the RSA host key only with rsa-sha2-256/512 signatures.
 * ssh2 always adds `ssh-rsa` for an RSA key (its algorithms setting cannot remove it), so the key
 * is handed over as two keys that present themselves as rsa-sha2-512 and rsa-sha2-256; ssh2
 * signs with the hash of the negotiated name and sends the same public key (type ssh-rsa in
 * the key blob, as RFC 8332 wants), so clients that pinned the RSA host key keep connecting.
 */
export function sshServerConfig(hostKeys: Buffer[]): ssh2.ServerConfig {
  const keys: ssh2.ServerConfig['hostKeys'] = [];
  for (const raw of hostKeys) {
    const parsed = ssh2.utils.parseKey(raw);
    if (parsed instanceof Error || Array.isArray(parsed) || parsed.type !== 'ssh-rsa') {
      keys.push(raw);
      continue;
    }
    for (const type of ['rsa-sha2-512', 'rsa-sha2-256'])
      keys.push({ key: Object.create(parsed, { type: { value: type } }) as ssh2.ParsedKey, passphrase: '' });
  }
  return {
    hostKeys: keys,
    ident: 'PhotoRelay',
    algorithms: {
      serverHostKey: [
        'ssh-ed25519',
        'ecdsa-sha2-nistp256',
        'ecdsa-sha2-nistp384',
        'ecdsa-sha2-nistp521',
        'rsa-sha2-512',
        'rsa-sha2-256',
      ],
      hmac: [
        'hmac-sha2-256-etm@openssh.com',
        'hmac-sha2-512-etm@openssh.com',
        'hmac-sha2-256',
        'hmac-sha2-512',
      ],
    },
  };
}
