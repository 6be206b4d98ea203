import type { Logger } from 'pino';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/** A refusal the SMTP client sees as `code message` (5xx: do not try again). */
export class InboundRefusal extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

export interface InboundMailOptions {
  port: number;
  host: string;
  /** Larger messages are refused (SIZE is announced, and a longer DATA answered 552). */
  maxBytes: number;
  log: Logger;
  /** Whether mail for this address is taken at all; anything else is refused at RCPT TO. */
  accepts(address: string): boolean;
  /** One message for one accepted recipient; an InboundRefusal is answered as its code. */
  deliver(recipient: string, raw: Buffer): Promise<void>;
}

/**
 * A receiving SMTP server for the few addresses we hand out (issue 27 item 5: calendar apps'
 * answers to invitations). No relaying, no AUTH; one recipient per message, since each address
 * stands for one invitation.
 */
export async function startInboundSmtp(options: InboundMailOptions) {
  const server = new SMTPServer({
    name: 'photorelay',
    banner: 'PhotoRelay calendar replies',
    authOptional: true,
    // No certificate of its own: the MX in front (or the sending MTA over a private link) brings TLS.
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: options.maxBytes,
    maxClients: 50,
    socketTimeout: 30_000,
    closeTimeout: 5_000,
    logger: false,
    onRcptTo(address, session: SMTPServerSession, callback) {
      if (session.envelope.rcptTo.length >= 1) return callback(refused(452, 'One recipient per message'));
      if (!options.accepts(address.address)) return callback(refused(550, 'No such recipient'));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(refused(552, 'Message too large'));
        const recipient = session.envelope.rcptTo[0]?.address ?? '';
        options.deliver(recipient, Buffer.concat(chunks)).then(
          () => callback(),
          (error: unknown) => {
            if (error instanceof InboundRefusal) return callback(refused(error.responseCode, error.message));
            options.log.error({ err: error }, 'inbound mail failed');
            callback(refused(451, 'Try again later'));
          },
        );
      });
    },
  });
  server.on('error', (err) => options.log.warn({ err }, 'inbound SMTP'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function refused(code: number, message: string) {
  return Object.assign(new Error(message), { responseCode: code });
}
