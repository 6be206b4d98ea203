// A camera's upload in a few lines of plain FTP (USER, PASS, TYPE I, EPSV, STOR), so journeys
// can put files into a project's ingest account without an extra FTP client library.
import net from 'node:net';

type Reply = { code: number; text: string };

class ControlConnection {
  private buffer = '';
  private waiting: Array<(reply: Reply) => void> = [];
  private replies: Reply[] = [];

  constructor(private readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      // A reply ends with a line "NNN text" (multi-line replies start with "NNN-").
      for (;;) {
        const match = /^(\d{3}) [^\r\n]*\r?\n/m.exec(this.buffer);
        if (!match) break;
        const end = match.index + match[0].length;
        const reply = { code: Number(match[1]), text: this.buffer.slice(0, end).trim() };
        this.buffer = this.buffer.slice(end);
        const next = this.waiting.shift();
        if (next) next(reply);
        else this.replies.push(reply);
      }
    });
  }

  read(): Promise<Reply> {
    const ready = this.replies.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('FTP server did not answer')), 10_000);
      this.waiting.push((reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  }

  async send(command: string, expect: (code: number) => boolean): Promise<Reply> {
    this.socket.write(`${command}\r\n`);
    const reply = await this.read();
    if (!expect(reply.code)) throw new Error(`FTP ${command.split(' ')[0]} failed: ${reply.text}`);
    return reply;
  }
}

const connect = (host: string, port: number) =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect({ host, port }, () => resolve(socket));
    socket.once('error', reject);
  });

/** Uploads `content` as `filename` to the FTP account (plain FTP, passive mode). */
export async function ftpUpload(options: {
  host: string;
  port: number;
  username: string;
  password: string;
  filename: string;
  content: Buffer;
}): Promise<void> {
  const socket = await connect(options.host, options.port);
  const control = new ControlConnection(socket);
  try {
    const greeting = await control.read();
    if (greeting.code !== 220) throw new Error(`FTP greeting: ${greeting.text}`);
    await control.send(`USER ${options.username}`, (code) => code === 331 || code === 230);
    await control.send(`PASS ${options.password}`, (code) => code === 230);
    await control.send('TYPE I', (code) => code === 200);
    const passive = await control.send('EPSV', (code) => code === 229);
    const dataPort = Number(/\(\|\|\|(\d+)\|\)/.exec(passive.text)?.[1]);
    const data = await connect(options.host, dataPort);
    const stored = control.send(`STOR ${options.filename}`, (code) => code === 150 || code === 125);
    await stored;
    await new Promise<void>((resolve, reject) => {
      data.once('error', reject);
      data.end(options.content, () => resolve());
    });
    const done = await control.read();
    if (done.code !== 226 && done.code !== 250) throw new Error(`FTP upload failed: ${done.text}`);
    await control.send('QUIT', () => true);
  } finally {
    socket.destroy();
  }
}
