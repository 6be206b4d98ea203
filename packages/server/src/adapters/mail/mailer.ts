import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the mail is about, logged (LOG_LEVEL=debug) when mails go to the outbox. */
  link?: string;
  /**
   * An iMIP calendar object (RFC 6047): sent as a text/calendar alternative part (what calendar
   * apps act on) and as an `invite.ics` attachment (what a person can open or import).
   */
  calendar?: { method: 'REQUEST' | 'CANCEL'; ics: string };
}

/** The message as nodemailer takes it. */
function envelope(from: string, m: MailMessage) {
  return {
    from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    // nodemailer sends it as a text/calendar alternative and attaches it as invite.ics.
    ...(m.calendar
      ? { icalEvent: { method: m.calendar.method, filename: 'invite.ics', content: m.calendar.ics } }
      : {}),
  };
}

/** The address part of MAIL_FROM ("PhotoRelay <noreply@example.com>" -> noreply@example.com). */
export const senderAddress = (from: string) => /<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from.trim();

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** SMTP when SMTP_URL is set, else .eml files in DATA_DIR/outbox (and the link in the debug log). */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: Logger;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(m) {
        await transport.sendMail(envelope(options.from, m));
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await transport.sendMail(envelope(options.from, m));
      await fs.mkdir(outbox, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`;
      // The mail holds a live link (a password reset): readable by this user only.
      await fs.writeFile(path.join(outbox, name), info.message as Buffer, { mode: 0o600 });
      // The log says that there is a link, not the token in it; LOG_LEVEL=debug shows it (development).
      options.log.info(
        { to: m.to, hasLink: Boolean(m.link), file: name },
        `mail written to outbox: ${m.subject}`,
      );
      if (m.link) options.log.debug({ to: m.to, link: m.link, file: name }, 'mail link');
    },
  };
}
