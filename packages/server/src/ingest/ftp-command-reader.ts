import type net from 'node:net';
import type { FtpSrvConnection, ParsedCommand } from './ftp-srv-internals.ts';

const MAX_LINE_BYTES = 8192;
const MAX_QUEUED_COMMANDS = 64;

export interface CommandReaderHooks {
  /** Every command as it arrives, ABOR included (the connection log, the idle timer). */
  received(command: ParsedCommand, line: string): void;
  /** ABOR, run at once: it must overtake the queue, it is meant for the transfer running in it. */
  abort(): Promise<void>;
  /** Runs one command (`tlsNow`: as switchesToTls said when it was read); the next one starts when it has finished. */
  run(command: ParsedCommand, tlsNow: boolean): Promise<void>;
  /** Whether nothing may be read after this command in plain text (AUTH TLS on a plain connection). */
  switchesToTls(command: ParsedCommand): boolean;
  /** A command failed (it is logged; the connection goes on). */
  failed(err: unknown): void;
  /** Notes a refusal in the connection log. */
  refused(text: string): void;
}

/**
 * Replaces ftp-srv's chunk-wise reader (it splits each TCP chunk on its own and runs chunks
 * concurrently) with a line-buffered one feeding a serial queue: commands run one after
 * another, in the order they came. A line over 8 KiB or more than 64 waiting commands end
 * the connection.
 */
export function readCommandsInOrder(raw: net.Socket, conn: FtpSrvConnection, hooks: CommandReaderHooks) {
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
      const command = conn.commands.parse(line);
      hooks.received(command, line);
      if (command.directive === 'ABOR') {
        void hooks.abort();
        continue;
      }
      if (++queued > MAX_QUEUED_COMMANDS) {
        hooks.refused('too many queued commands');
        void conn.close(421, 'Too many commands');
        raw.destroy();
        return;
      }
      const tlsNow = hooks.switchesToTls(command);
      queue = queue
        .then(() => hooks.run(command, tlsNow))
        .catch((err: unknown) => hooks.failed(err))
        .finally(() => {
          queued--;
        });
      // Nothing may follow AUTH TLS in plain text: the client waits for 234, then speaks TLS.
      if (tlsNow) break;
    }
    if (buffered.length > MAX_LINE_BYTES) {
      hooks.refused('command line too long');
      void conn.close(500, 'Command line too long');
    }
  });
}
