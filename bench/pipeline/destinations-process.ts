// The benchmark's destination servers, in a process of their own so that receiving does not
// compete with the cameras (the benchmark process) for one event loop: `count` FTP servers,
// either ours over temp folders (test/support/destinations.ts) or Debian's vsftpd (`vsftpd`,
// needs root; anonymous uploads into incoming/). Talks to its parent over IPC:
//   -> { type: 'ready', ports, user, password, root }   root: the writable folder ('' or 'incoming')
//   -> { type: 'delivered', destination: number, path: string, at: number }   (the final rename;
//      path relative to root)
//   <- { type: 'stop' }   closes the servers, deletes their folders, exits
import fs from 'node:fs';
import path from 'node:path';
import { destinationUser, startFtpDestination } from '../../packages/server/test/support/destinations.ts';
import { startVsftpd } from '../../packages/server/test/support/vsftpd.ts';

const count = Number(process.argv[2] ?? 2);
const kind = process.argv[3] === 'vsftpd' ? 'vsftpd' : 'ours';
const send = (message: unknown) => process.send?.(message);
const stops: Array<() => Promise<void>> = [];
const ports: number[] = [];

if (kind === 'vsftpd') {
  for (let i = 0; i < count; i++) {
    const server = await startVsftpd();
    const incoming = path.join(server.root, 'incoming');
    // A file appears under its final name only when a delivery renames it into place.
    const watcher = fs.watch(incoming, { recursive: true }, (_event, name) => {
      if (!name || path.basename(name).startsWith('.')) return;
      const at = Date.now();
      fs.stat(path.join(incoming, name), (err, stat) => {
        if (!err && stat.isFile()) send({ type: 'delivered', destination: i, path: name, at });
      });
    });
    stops.push(async () => {
      watcher.close();
      await server.stop();
    });
    ports.push(server.port);
  }
  send({ type: 'ready', ports, user: 'anonymous', password: 'bench@example.com', root: 'incoming' });
} else {
  for (let i = 0; i < count; i++) {
    const destination = await startFtpDestination();
    const backend = destination.backend;
    const rename = backend.rename.bind(backend);
    backend.rename = async (account, from, to) => {
      await rename(account, from, to);
      send({ type: 'delivered', destination: i, path: to, at: Date.now() });
    };
    stops.push(() => destination.close());
    ports.push(destination.port);
  }
  send({
    type: 'ready',
    ports,
    user: destinationUser.username,
    password: destinationUser.password,
    root: '',
  });
}

const stopAll = async () => {
  await Promise.all(stops.map((stop) => stop().catch(() => {})));
  process.exit(0);
};
process.on('message', (message: { type?: string }) => {
  if (message?.type === 'stop') void stopAll();
});
// vsftpd runs in process groups of its own: stop it even when the benchmark dies.
process.on('disconnect', () => void stopAll());
