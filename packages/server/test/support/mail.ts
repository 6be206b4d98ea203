import { simpleParser as parseMime } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from './mail-parse.ts';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  /** The message as it came over SMTP. */
  raw: string;
  /** Attachments and non-text alternatives (a text/calendar part), decoded. */
  parts: Array<{ filename?: string; contentType: string; method?: string; content: string }>;
}

/** Our plain mails as before; a multipart one (an invitation with its .ics) through mailparser. */
async function parseMail(raw: string) {
  if (!/^content-type:\s*multipart\//im.test(raw.split(/\r?\n\r?\n/)[0]))
    return { ...simpleParser(raw), parts: [] };
  const mail = await parseMime(raw);
  return {
    subject: mail.subject ?? '',
    text: mail.text ?? '',
    parts: mail.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      method: (a.headers.get('content-type') as { params?: Record<string, string> } | undefined)?.params
        ?.method,
      content: a.content.toString('utf8'),
    })),
  };
}

/** A real SMTP server on loopback that keeps what it receives, for SMTP_URL in tests. */
export async function startMailCatcher() {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        parseMail(raw).then(
          (parsed) => {
            for (const rcpt of session.envelope.rcptTo)
              mails.push({ to: rcpt.address.toLowerCase(), raw, ...parsed });
            for (const w of waiters.splice(0)) w();
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  async function waitFor(to: string, match: (m: ReceivedMail) => boolean = () => true, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = mails.find((m) => m.to === to.toLowerCase() && match(m));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first http(s) link of a mail, as path + query relative to the app. */
export function linkIn(mail: ReceivedMail): URL {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`no link in mail "${mail.subject}"`);
  return new URL(match[0]);
}
