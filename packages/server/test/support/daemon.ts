import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/**
 * Waits until a daemon started for a test (vsftpd, sshd) answers on `port` with a first line
 * starting with `prefix` ('220' for FTP, 'SSH-2.0-' for SSH); fails when it exits or the time
 * runs out.
 */
export async function waitForFirstLine(
  name: string,
  port: number,
  child: ChildProcess,
  prefix: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited`);
    const line = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      const done = (value: string) => {
        socket.destroy();
        resolve(value);
      };
      socket.setTimeout(1000, () => done(text));
      socket.on('data', (d) => {
        text += d.toString();
        if (text.includes('\n')) done(text);
      });
      socket.on('error', () => done(''));
    });
    if (line.startsWith(prefix)) return;
    if (Date.now() > deadline)
      throw new Error(`${name} did not answer on port ${port}: ${JSON.stringify(line)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
