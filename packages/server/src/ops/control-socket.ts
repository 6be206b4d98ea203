import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { type Db, dumpEmbedded } from '../db/kysely.ts';

/**
 * The embedded database belongs to the server process that opened it: a backup taken while the
 * relay runs asks that process for the dump over a Unix socket in DATA_DIR, which is private to
 * the service's user (0700). One line in (`dump <new folder>`), one line out (`ok` or the error).
 */
export const controlSocketPath = (dataDir: string) => path.join(path.resolve(dataDir), 'control.sock');

export function startControlSocket(db: Db, dataDir: string, log: Logger): () => Promise<void> {
  const socketPath = controlSocketPath(dataDir);
  fs.rmSync(socketPath, { force: true }); // left by a process that was killed
  const server = net.createServer((socket) => {
    let line = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      line += chunk;
      if (line.length > 4096) return socket.destroy();
      const end = line.indexOf('\n');
      if (end < 0) return;
      const [command, ...rest] = line.slice(0, end).split(' ');
      const dir = rest.join(' ');
      if (command !== 'dump' || !path.isAbsolute(dir)) return socket.end('unknown request\n');
      log.info({ dir }, 'backup: copying the embedded database');
      dumpEmbedded(db, dir).then(
        () => socket.end('ok\n'),
        (err: Error) => socket.end(`${err.message.replace(/\n/g, ' ')}\n`),
      );
    });
  });
  server.listen(socketPath);
  server.unref();
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      fs.rmSync(socketPath, { force: true });
    });
}
