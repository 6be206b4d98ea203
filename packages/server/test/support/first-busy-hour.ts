import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { Client as FtpClient } from 'basic-ftp';
import type { TestClient } from './client.ts';
import { startFtpDestination, type TempDirDestination } from './destinations.ts';
import { type PreparedData, prepareData } from './prepared-data.ts';
import { type ServerProcess, serverProcess } from './process.ts';

/**
 * A fresh install's first busy event (issue 29, 2), for the int test and bench/first-hour: a new
 * DATA_DIR, a project with two FTP destinations, a few uploads, the embedded database's first
 * maintenance (`vacuum (analyze)` a minute after start: statistics of nearly empty tables), then a
 * burst of small pictures from many cameras. Before the fix the delivery claim kept a plan made
 * for the empty tables and deliveries crawled (0.5 per second).
 */

type Account = { username: string; password: string };

export interface FirstHourSetup {
  data: PreparedData;
  server: ServerProcess;
  owner: TestClient;
  destinations: [TempDirDestination, TempDirDestination];
  account: Account;
  /** When the server process was started (ms). */
  startedAt: number;
  close(): Promise<void>;
}

export interface BurstFigures {
  pictures: number;
  /** First upload started to last acknowledgement (ms). */
  uploadMs: number;
  /** Slowest single upload (ms). */
  slowestUploadMs: number;
  /** Last acknowledgement to the last of the 2 × pictures deliveries (ms); NaN when not all came in time. */
  lastAckToDeliveredMs: number;
  /** Deliveries that arrived (of 2 × pictures) when it ended. */
  delivered: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The embedded database's first maintenance runs a minute after start (db/maintenance.ts). */
export const firstMaintenanceMs = 60_000;

/** A new install (PGlite in a new DATA_DIR) with a project delivering to two FTP destinations. */
export async function freshInstall(env: Record<string, string> = {}): Promise<FirstHourSetup> {
  const data = await prepareData();
  const destinations: [TempDirDestination, TempDirDestination] = [
    await startFtpDestination(),
    await startFtpDestination(),
  ];
  // 16 cameras on one project account from one address (a venue's NAT): above the defaults of 8 and 16.
  const limits = { PASV_MAX_PER_ACCOUNT: '32', PASV_MAX_PER_ADDRESS: '32' };
  const server = await serverProcess({
    dataDir: data.dataDir,
    databaseUrl: data.databaseUrl,
    env: { ...limits, ...env },
  });
  const startedAt = Date.now();
  await server.start();
  const owner = await server.login(data.team.email, data.team.password);
  const api = (suffix: string) => `/api/${data.team.teamUuid}${suffix}`;
  const created = await owner.post<{ projectId: number }>(api('/project'), {
    name: 'Match day',
    parentFolderId: data.team.projectsRootId,
  });
  if (created.status !== 200) throw new Error(`project: ${JSON.stringify(created.body)}`);
  const projectId = created.body.projectId;
  for (const [i, d] of destinations.entries()) {
    const made = await owner.post<{ ftpserverid: number }>(api('/ftpserver'), {
      name: `Agency ${i + 1}`,
      host: '127.0.0.1',
      port: d.port,
      path: 'in',
      protocol: 'ftp',
      username: d.username,
      password: d.password,
      parentFolderId: data.team.ftpserversRootId,
    });
    if (made.status !== 200) throw new Error(`destination: ${JSON.stringify(made.body)}`);
    const linked = await owner.post(api(`/project/${projectId}/ftpserver/${made.body.ftpserverid}`));
    if (linked.status !== 200) throw new Error(`link: ${JSON.stringify(linked.body)}`);
  }
  const project = await owner.get<{ project: { ftpAccounts: Account[] } }>(api(`/project/${projectId}`));
  const account = project.body.project.ftpAccounts[0];
  if (!account) throw new Error('the project has no FTP account');
  return {
    data,
    server,
    owner,
    destinations,
    account,
    startedAt,
    async close() {
      await server.stop();
      await Promise.allSettled(destinations.map((d) => d.close()));
      await data.remove();
    },
  };
}

/** Deliveries so far: the renames of finished temp files to their names (a listing races them). */
const delivered = (setup: FirstHourSetup) =>
  setup.destinations.reduce((n, d) => n + d.backend.deliveredAt.size, 0);

/**
 * `cameras` FTP sessions each upload `perCamera` small pictures one after another; then waits up
 * to `deliveryTimeoutMs` after the last acknowledgement for both destinations to have them all.
 */
export async function burst(
  setup: FirstHourSetup,
  options: { prefix: string; cameras: number; perCamera: number; deliveryTimeoutMs: number },
): Promise<BurstFigures> {
  const before = delivered(setup);
  const pictures = options.cameras * options.perCamera;
  // One login after another: parallel logins of one account count against each other before
  // their passwords are checked (ingest/login-throttle.ts), and ten of them block the account.
  const clients: FtpClient[] = [];
  try {
    for (let c = 0; c < options.cameras; c++) {
      const client = new FtpClient(120_000);
      clients.push(client);
      await client.access({
        host: '127.0.0.1',
        port: setup.server.ftpPort,
        user: setup.account.username,
        password: setup.account.password,
      });
    }
    const started = Date.now();
    let slowest = 0;
    await Promise.all(
      clients.map(async (client, c) => {
        for (let n = 1; n <= options.perCamera; n++) {
          const picture = crypto.randomBytes(4_000 + ((n * 7919 + c * 104_729) % 12_000));
          const name = `${options.prefix}_C${String(c + 1).padStart(2, '0')}_${String(n).padStart(4, '0')}.JPG`;
          const t = Date.now();
          await client.uploadFrom(Readable.from([picture]), name);
          slowest = Math.max(slowest, Date.now() - t);
        }
      }),
    );
    return await deliveries(setup, {
      before,
      pictures,
      started,
      slowest,
      timeoutMs: options.deliveryTimeoutMs,
    });
  } finally {
    for (const client of clients) client.close();
  }
}

async function deliveries(
  setup: FirstHourSetup,
  o: { before: number; pictures: number; started: number; slowest: number; timeoutMs: number },
): Promise<BurstFigures> {
  const { before, pictures, started, slowest } = o;
  const lastAck = Date.now();
  const wanted = before + 2 * pictures;
  const deadline = lastAck + o.timeoutMs;
  while (delivered(setup) < wanted && Date.now() < deadline) await sleep(100);
  const count = delivered(setup) - before;
  const lastDelivery = Math.max(...setup.destinations.flatMap((d) => [...d.backend.deliveredAt.values()]));
  return {
    pictures,
    uploadMs: lastAck - started,
    slowestUploadMs: slowest,
    lastAckToDeliveredMs: count >= 2 * pictures ? Math.max(0, lastDelivery - lastAck) : Number.NaN,
    delivered: count,
  };
}

/** A few uploads, delivered, then waits until the first maintenance has run (with a margin). */
export async function fewUploadsThenFirstMaintenance(setup: FirstHourSetup): Promise<void> {
  const figures = await burst(setup, {
    prefix: 'FIRST',
    cameras: 1,
    perCamera: 3,
    deliveryTimeoutMs: 30_000,
  });
  if (figures.delivered < 6)
    throw new Error(`the first uploads were not delivered:\n${setup.server.output()}`);
  const wait = setup.startedAt + firstMaintenanceMs + 10_000 - Date.now();
  if (wait > 0) await sleep(wait);
}
