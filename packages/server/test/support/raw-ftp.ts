import net from 'node:net';

/**
 * A bare FTP control connection, to do what polite clients never do (and from another loopback
 * address: Linux answers all of 127.0.0.0/8, so `from: '127.0.0.2'` is a second client machine).
 */
export class RawFtp {
  private buffer = '';
  private waiters: Array<() => void> = [];
  readonly socket: net.Socket;
  readonly connected: Promise<void>;
  closed = false;

  constructor(port: number, from = '127.0.0.1') {
    this.socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    this.socket.setEncoding('latin1');
    this.connected = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('data', (d: string) => {
      this.buffer += d;
      this.wake();
    });
    this.socket.on('error', () => {});
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Next complete reply (multi-line replies joined); '' once the server closed without one. */
  async reply(timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = /^(\d{3})(?:-[\s\S]*?\r\n\1 .*\r\n| .*\r\n)/.exec(this.buffer);
      if (m) {
        this.buffer = this.buffer.slice(m[0].length);
        return m[0].trim();
      }
      if (this.closed) return '';
      if (Date.now() > deadline) throw new Error(`no reply; have ${JSON.stringify(this.buffer)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  async cmd(line: string, timeoutMs?: number): Promise<string> {
    this.socket.write(`${line}\r\n`, 'latin1');
    return this.reply(timeoutMs);
  }

  /** Greeting, USER, PASS: the PASS reply. */
  async login(user: string, password: string): Promise<string> {
    await this.reply();
    await this.cmd(`USER ${user}`);
    return this.cmd(`PASS ${password}`);
  }

  /** EPSV's port, or the refusal's text. */
  async epsv(): Promise<{ port?: number; reply: string }> {
    const reply = await this.cmd('EPSV');
    const port = /\(\|\|\|(\d+)\|\)/.exec(reply)?.[1];
    return { port: port ? Number(port) : undefined, reply };
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Opens a data connection to `port` from `from`; resolves once TCP is up. */
export async function dataConnect(port: number, from = '127.0.0.1'): Promise<net.Socket> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}
