// The benchmark's destination servers, in a process of their own so that receiving does not
// compete with the cameras (the benchmark process) for one event loop: `count` FTP servers of
// ours over temp folders (test/support/destinations.ts). Talks to its parent over IPC:
//   -> { type: 'ready', ports: number[] }
//   -> { type: 'delivered', destination: number, path: string, at: number }   (the final rename)
//   <- { type: 'stop' }   closes the servers, deletes their folders, exits
import {
  startFtpDestination,
  type TempDirDestination,
} from '../../packages/server/test/support/destinations.ts';

const count = Number(process.argv[2] ?? 2);
const send = (message: unknown) => process.send?.(message);

const destinations: TempDirDestination[] = [];
for (let i = 0; i < count; i++) {
  const destination = await startFtpDestination();
  const backend = destination.backend;
  const rename = backend.rename.bind(backend);
  backend.rename = async (account, from, to) => {
    await rename(account, from, to);
    send({ type: 'delivered', destination: i, path: to, at: Date.now() });
  };
  destinations.push(destination);
}

process.on('message', async (message: { type?: string }) => {
  if (message?.type !== 'stop') return;
  await Promise.all(destinations.map((d) => d.close()));
  process.exit(0);
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', ports: destinations.map((d) => d.port) });
