// Auth flood benchmark (issue 10 item 2): how long does a camera's FTP upload take while the same
// server process answers a flood of password logins (argon2id verifies)? Printed beside the
// baseline measured in the same run on the same server: the same uploads without the flood.
// The auth rate limit is lifted for the run (AUTH_RATE_LIMIT=1000000): the flood stands for many
// addresses, where the per-address limit does not help and only the hash gate does.
//
//   npx tsx bench/auth-flood/run.ts [--uploads 20] [--flooders 32] [--size-kb 1024] [--tsx]
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client as FtpClient } from 'basic-ftp';
import type { TestClient } from '../../packages/server/test/support/client.ts';
import { prepareData } from '../../packages/server/test/support/prepared-data.ts';
import { serverProcess } from '../../packages/server/test/support/process.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const sampleImage = path.resolve(here, '../../../shared/data/images/IPTC-PhotometadataRef-Std2025.1.jpg');

const { values: opts } = parseArgs({
  options: {
    uploads: { type: 'string', default: '20' },
    /** Concurrent login loops of the flood. */
    flooders: { type: 'string', default: '32' },
    'size-kb': { type: 'string', default: '1024' },
    /** Run main.ts through tsx instead of the bundle that `npm start` runs. */
    tsx: { type: 'boolean', default: false },
  },
});
const uploads = Number(opts.uploads);
const flooders = Number(opts.flooders);
const fileBytes = Number(opts['size-kb']) * 1024;

const log = (text: string) => console.log(text);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
};

/** A JPEG of about `bytes`: a sample image's bytes repeated after its own end (the ingest keeps them as they are). */
function pictureOf(bytes: number): Buffer {
  const sample = fs.existsSync(sampleImage) ? fs.readFileSync(sampleImage) : Buffer.alloc(4096, 1);
  const copies = Math.max(1, Math.ceil(bytes / sample.length));
  return Buffer.concat(Array.from({ length: copies }, () => sample)).subarray(
    0,
    Math.max(bytes, sample.length),
  );
}

async function projectAccount(client: TestClient, teamUuid: string, projectsRootId: number) {
  const created = await client.post<{ projectId: number }>(`/api/${teamUuid}/project`, {
    name: 'Flood',
    parentFolderId: projectsRootId,
  });
  if (created.status !== 200) throw new Error(`create project: ${JSON.stringify(created.body)}`);
  const project = await client.get<{
    project: { ftpAccounts: Array<{ username: string; password: string }> };
  }>(`/api/${teamUuid}/project/${created.body.projectId}`);
  const account = project.body.project.ftpAccounts[0];
  if (!account) throw new Error('project has no ingest account');
  return account;
}

/** One camera upload as a camera does it: connect, log in, store, quit. Milliseconds to the 226. */
async function timedUpload(
  port: number,
  account: { username: string; password: string },
  name: string,
  data: Buffer,
) {
  const started = performance.now();
  const client = new FtpClient(60_000);
  try {
    await client.access({ host: '127.0.0.1', port, user: account.username, password: account.password });
    await client.uploadFrom(Readable.from([data]), name);
    return performance.now() - started;
  } finally {
    client.close();
  }
}

async function uploadSeries(
  port: number,
  account: { username: string; password: string },
  tag: string,
  data: Buffer,
) {
  const times: number[] = [];
  for (let i = 0; i < uploads; i++) times.push(await timedUpload(port, account, `${tag}_${i}.JPG`, data));
  return times;
}

/** `flooders` loops of wrong-password logins until stopped; counts the answers by status. */
function startFlood(url: string, email: string) {
  const statuses = new Map<number, number>();
  let running = true;
  const loop = async (n: number) => {
    while (running) {
      try {
        const res = await fetch(`${url}/api/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url },
          body: JSON.stringify({ email, password: `wrong-${n}-${Math.random()}` }),
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
    }
  };
  const started = performance.now();
  const loops = Array.from({ length: flooders }, (_, n) => loop(n));
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { statuses, seconds: (performance.now() - started) / 1000 };
    },
  };
}

const summary = (times: number[]) =>
  `median ${percentile(times, 50).toFixed(0)} ms, p90 ${percentile(times, 90).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`;

async function main() {
  const data = await prepareData();
  const server = await serverProcess({
    dataDir: data.dataDir,
    databaseUrl: data.databaseUrl,
    fromSource: opts.tsx,
    env: { AUTH_RATE_LIMIT: '1000000' },
  });
  try {
    await server.start();
    const owner = await server.login(data.team.email, data.team.password);
    const account = await projectAccount(owner, data.team.teamUuid, data.team.projectsRootId);
    const picture = pictureOf(fileBytes);
    log(
      `auth flood: ${uploads} uploads of ${(picture.length / 1024).toFixed(0)} KiB each, ${flooders} login loops`,
    );

    await uploadSeries(server.ftpPort, account, 'warmup', picture);
    const baseline = await uploadSeries(server.ftpPort, account, 'quiet', picture);
    const flood = startFlood(server.url, data.team.email);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the flood at full strength first
    const flooded = await uploadSeries(server.ftpPort, account, 'flood', picture);
    const { statuses, seconds } = await flood.stop();

    const answered = [...statuses.values()].reduce((a, b) => a + b, 0);
    const ratio = percentile(flooded, 50) / percentile(baseline, 50);
    log(`  upload without flood:  ${summary(baseline)}`);
    log(`  upload during flood:   ${summary(flooded)}`);
    log(`  median ratio: ${ratio.toFixed(2)}x (goal: within 2x)`);
    log(
      `  logins answered during the flood: ${answered} in ${seconds.toFixed(1)} s (${(answered / seconds).toFixed(1)}/s); by status: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  } finally {
    await server.stop();
    await data.remove();
  }
}

await main();
