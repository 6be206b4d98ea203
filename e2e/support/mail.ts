// Reads the mails the server writes to <DATA_DIR>/outbox/*.eml (its default mail transport).
import fs from 'node:fs/promises';
import path from 'node:path';

export type Mail = { file: string; to: string; subject: string; text: string };

function decodeQuotedPrintable(body: string): string {
  const bytes: number[] = [];
  const soft = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const char = soft[i];
    const hex = soft.slice(i + 1, i + 3);
    if (char === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeHeader(value: string): string {
  return value.replace(
    /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
    (_all, _charset, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

type Part = { headers: Map<string, string>; body: string };

function splitPart(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return part.body;
}

/** The first text/plain part, looking into nested multiparts (an invitation: mixed > alternative). */
function plainText(part: Part): string | null {
  const type = (part.headers.get('content-type') ?? 'text/plain').toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(part.headers.get('content-type') ?? '')?.[1];
  if (type.startsWith('multipart/') && boundary) {
    const parts = part.body
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((chunk) => splitPart(chunk.replace(/^\r?\n/, '')));
    for (const inner of parts) {
      const text = plainText(inner);
      if (text !== null) return text;
    }
    return null;
  }
  return type.startsWith('text/plain') ? decodeBody(part) : null;
}

/** The text/plain content of a (possibly multipart) message. */
export function parseEml(raw: string, file = ''): Mail {
  const top = splitPart(raw);
  return {
    file,
    to: decodeHeader(top.headers.get('to') ?? ''),
    subject: decodeHeader(top.headers.get('subject') ?? ''),
    text: plainText(top) ?? '',
  };
}

/** The first http(s) link of a text. */
export function firstLink(text: string): string | null {
  return /https?:\/\/[^\s<>"')]+/.exec(text)?.[0] ?? null;
}

export async function readMails(dataDir: string): Promise<Mail[]> {
  const outbox = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = (await fs.readdir(outbox)).filter((name) => name.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (name) => parseEml(await fs.readFile(path.join(outbox, name), 'utf8'), name)),
  );
}

/** Waits for a mail to `to` (optionally matching `subject`) that was not in `seen`. */
export async function waitForMail(
  dataDir: string,
  to: string,
  options: { subject?: RegExp; timeoutMs?: number; ignore?: Set<string> } = {},
): Promise<Mail> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const mails = await readMails(dataDir);
    const match = mails.find(
      (mail) =>
        mail.to.toLowerCase().includes(to.toLowerCase()) &&
        (!options.subject || options.subject.test(mail.subject)) &&
        !options.ignore?.has(mail.file),
    );
    if (match) return match;
    if (Date.now() > deadline) {
      throw new Error(
        `No mail to ${to} within the time limit; outbox has: ${mails.map((m) => `${m.to} '${m.subject}'`).join(', ') || 'nothing'}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
