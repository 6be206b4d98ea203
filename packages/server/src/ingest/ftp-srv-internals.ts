import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type net from 'node:net';
import type FtpSrv from 'ftp-srv';

/**
 * The parts of ftp-srv 4.6 internals the ingest uses, typed here because its bundled .d.ts
 * does not describe them. Checked against node_modules/ftp-srv/src (connection.js,
 * connector/*.js, commands/index.js). Pinned by the integration tests: if an upgrade changes
 * them, those fail.
 */

export interface ParsedCommand {
  directive: string;
  arg: string | null;
  flags: string[];
  raw: string;
}

export interface ReplyLetter {
  message?: string | number;
  raw?: boolean;
  socket?: net.Socket;
}

export interface ReplyOptions {
  code?: number;
  socket?: net.Socket;
  useEmptyMessage?: boolean;
  eol?: boolean;
}

/** Thenable, because ftp-srv returns bluebird promises. */
export interface DataConnector {
  type: string | false;
  dataSocket: net.Socket | null;
  /** Passive connectors only. */
  dataServer?: net.Server | null;
  waitForConnection(options?: { timeout?: number; delay?: number }): PromiseLike<net.Socket>;
  setupServer?(): PromiseLike<net.Server>;
  end(): void;
}

export interface FtpSrvConnection extends EventEmitter {
  id: string;
  readonly ip: string | undefined;
  commandSocket: net.Socket;
  secure: boolean;
  encoding: string;
  authenticated?: boolean;
  username?: string;
  connector: DataConnector;
  commands: {
    parse(line: string): ParsedCommand;
    handle(command: ParsedCommand): PromiseLike<unknown>;
  };
  reply(
    options: number | ReplyOptions,
    ...letters: Array<string | ReplyLetter | undefined>
  ): PromiseLike<unknown>;
  close(code?: number, message?: string): PromiseLike<unknown>;
}

type ConnectorClass = new (connection: FtpSrvConnection) => DataConnector;

const require = createRequire(import.meta.url);

/** ftp-srv's "no data connection yet" connector, what a connection holds between transfers. */
export const BaseConnector = require('ftp-srv/src/connector/base') as ConnectorClass;

/** ftp-srv's default reply texts by code, for the connection log of replies sent without one. */
export const defaultReplyTexts = require('ftp-srv/src/messages') as Record<number, string>;

/** ftp-srv's 'ls'-style LIST line formatter. */
export const formatListLine = require('ftp-srv/src/helpers/file-stat') as (stat: {
  name: string;
  size: number;
  mtime: Date;
  isDirectory(): boolean;
}) => string;

/** The connection-log text of one reply; undefined for data-connection output. */
export function replyText(
  opts: number | ReplyOptions,
  letters: Array<string | ReplyLetter | undefined>,
): string | undefined {
  const code = typeof opts === 'number' ? opts : opts.code;
  if (!code || (typeof opts === 'object' && opts.socket)) return undefined; // data-connection output (LIST lines)
  const first = letters[0];
  if (typeof first === 'object' && first?.socket) return undefined;
  const message = (typeof first === 'string' ? first : first?.message) ?? defaultReplyTexts[code];
  return message === undefined ? String(code) : `${code} ${String(message).slice(0, 512)}`;
}

export function listeningPort(server: FtpSrv): number {
  const address = (server as unknown as { server: net.Server }).server.address();
  if (!address || typeof address === 'string') throw new Error('FTP server is not listening');
  return address.port;
}

/** ftp-srv's constructor registers SIGTERM/SIGINT/SIGQUIT handlers that call process.exit; shutdown is ours. */
export function withoutSignalHandlers<T>(create: () => T): T {
  const signals = ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const;
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const created = create();
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return created;
}
