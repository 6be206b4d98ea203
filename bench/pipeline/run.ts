// Pipeline benchmark: cameras upload over FTP into a project with two FTP destinations; how fast
// does PhotoRelay take files in, how soon are they delivered everywhere, how much memory does the
// server use. The baseline, measured in the same run with the same files and cameras: the
// cameras upload straight to one destination server. See ../README.md.
//
//   npx tsx bench/pipeline/run.ts [--files 200] [--size-mb 5] [--clients 4] [--rounds 2]
//       [--paced-files 100] [--paced-rate 25] [--big-gib 1] [--skip-big]
//       [--postgres URL [--split-ingest]] [--tsx] [--destinations ours|vsftpd] [--dir /dev/shm] [--profile DIR] [--node-flags "..."]
import { type ChildProcess, fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client as FtpClient } from 'basic-ftp';
import type { TestClient } from '../../packages/server/test/support/client.ts';
import { type PreparedData, prepareData } from '../../packages/server/test/support/prepared-data.ts';
import { childPids, type ServerProcess, serverProcess } from '../../packages/server/test/support/process.ts';
import { makeFrame, metadataHead, standardTables, writeSyntheticJpeg } from '../stamp/synthetic-jpeg.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const images = path.resolve(here, '../../../shared/data/images');

const { values: opts } = parseArgs({
  options: {
    files: { type: 'string', default: '200' },
    'size-mb': { type: 'string', default: '5' },
    clients: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '2' },
    'paced-files': { type: 'string', default: '100' },
    /** Offered load of the paced phase, MB/s over all cameras. */
    'paced-rate': { type: 'string', default: '25' },
    'big-gib': { type: 'string', default: '1' },
    'skip-big': { type: 'boolean', default: false },
    /** Run the server on PostgreSQL (a database is created there and dropped) instead of PGlite. */
    postgres: { type: 'string' },
    /** Run main.ts through tsx instead of the bundle that `npm start` runs. */
    tsx: { type: 'boolean', default: false },
    dir: { type: 'string', default: fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir() },
    /** Writes a V8 CPU profile of the server process into this folder (when it stops). */
    profile: { type: 'string' },
    /** The destination servers: ours (Node, over temp folders) or Debian's vsftpd (needs root). */
    destinations: { type: 'string', default: 'ours' },
    /** More flags for the server's node, e.g. "--max-semi-space-size=4" (to compare settings). */
    'node-flags': { type: 'string', default: '' },
    /** PostgreSQL only: the cameras upload to a second server process that runs only the ingest (`--role ingest`). */
    'split-ingest': { type: 'boolean', default: false },
  },
});
const fileCount = Number(opts.files);
const fileBytes = Number(opts['size-mb']) * 1024 * 1024;
const clientCount = Number(opts.clients);
const rounds = Number(opts.rounds);
const pacedCount = Number(opts['paced-files']);
const pacedRate = Number(opts['paced-rate']);
const bigBytes = Math.round(Number(opts['big-gib']) * 1024 ** 3);
if (opts['split-ingest'] && !opts.postgres)
  throw new Error('--split-ingest needs --postgres (split roles share PostgreSQL)');
if (opts.postgres) {
  // prepareData() makes the server's own database on this PostgreSQL server.
  process.env.PHOTORELAY_TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = opts.postgres;
}

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (text: string) => console.log(text);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number);
};
const median = (values: number[]) => percentile(values, 50);

// ---------------------------------------------------------------------------------------------
// Files

async function generateFiles(dir: string): Promise<string[]> {
  const frame = makeFrame(standardTables(fs.readFileSync(path.join(images, 'exiv2-FurnaceCreekInn.jpg'))));
  const heads = ['IPTC-PhotometadataRef-Std2025.1.jpg', 'exiv2-Reagan.jpg', 'exiftool-IPTC.jpg'].map((name) =>
    metadataHead(fs.readFileSync(path.join(images, name))),
  );
  const files: string[] = [];
  for (let i = 0; i < fileCount; i++) {
    // A COM segment with random bytes makes every file's content (and checksum) its own.
    const unique = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x12]), crypto.randomBytes(16)]);
    const file = path.join(dir, `IMG_${String(i).padStart(4, '0')}.JPG`);
    await writeSyntheticJpeg(file, [...(heads[i % heads.length] ?? []), unique], frame, fileBytes);
    files.push(file);
  }
  return files;
}

// ---------------------------------------------------------------------------------------------
// Destination servers (child process)

interface Destinations {
  ports: number[];
  /** Login for the projects' FTP servers and the direct baseline. */
  user: string;
  password: string;
  /** The folder clients may write into ('' = the login folder; 'incoming' on vsftpd). */
  root: string;
  pid: number | undefined;
  /** Delivery time (ms) of `remotePath` at every destination, or undefined while one is missing. */
  deliveredEverywhere(remotePath: string): number | undefined;
  waitDelivered(paths: string[], timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

async function startDestinations(count: number, kind: string): Promise<Destinations> {
  const child: ChildProcess = fork(path.join(here, 'destinations-process.ts'), [String(count), kind], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const delivered = new Map<string, number>();
  type Ready = { ports: number[]; user: string; password: string; root: string };
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`destination process exited (${code})`)));
    child.on(
      'message',
      (m: Partial<Ready> & { type: string; destination?: number; path?: string; at?: number }) => {
        if (m.type === 'ready') resolve(m as Ready);
        // The first report counts (a watcher may see one rename twice).
        const key = `${m.destination}:${m.path}`;
        if (m.type === 'delivered' && !delivered.has(key)) delivered.set(key, m.at ?? 0);
      },
    );
  });
  const { ports } = ready;
  const everywhere = (p: string) => {
    let last = 0;
    for (let d = 0; d < ports.length; d++) {
      const at = delivered.get(`${d}:${p}`);
      if (at === undefined) return undefined;
      last = Math.max(last, at);
    }
    return last;
  };
  return {
    ...ready,
    pid: child.pid,
    deliveredEverywhere: everywhere,
    async waitDelivered(paths, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const missing = paths.filter((p) => everywhere(p) === undefined);
        if (missing.length === 0) return;
        if (Date.now() > deadline)
          throw new Error(
            `not delivered within ${timeoutMs} ms: ${missing.length} files, e.g. ${missing[0]}`,
          );
        await sleep(20);
      }
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Cameras

interface Target {
  port: number;
  user: string;
  password: string;
}

async function connect(target: Target): Promise<FtpClient> {
  const client = new FtpClient(60_000);
  await client.access({ host: '127.0.0.1', port: target.port, user: target.user, password: target.password });
  return client;
}

/**
 * `clients` cameras upload the files into `remoteDir`, each taking the next file as soon as its
 * last one was acknowledged. With `intervalMs`, file i is not sent before start + i * intervalMs
 * (a steady offered load). Resolves with each file's acknowledgement time (the 226).
 */
async function uploadAll(
  target: Target,
  files: string[],
  remoteDir: string,
  clients: number,
  intervalMs = 0,
): Promise<{ ms: number; ackAt: Map<string, number> }> {
  const connections = await Promise.all(Array.from({ length: clients }, () => connect(target)));
  for (const c of connections) await c.ensureDir(remoteDir);
  const ackAt = new Map<string, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    connections.map(async (client) => {
      for (let i = next++; i < files.length; i = next++) {
        const due = started + i * intervalMs - performance.now();
        if (due > 0) await sleep(due);
        const name = path.basename(files[i] as string);
        await client.uploadFrom(files[i] as string, name);
        ackAt.set(`${remoteDir}/${name}`, Date.now());
      }
    }),
  );
  const ms = performance.now() - started;
  for (const c of connections) c.close();
  return { ms, ackAt };
}

/**
 * CPU time (user + system, seconds) a process has used so far; 0 when it is gone. With `tree`,
 * also its descendants', including those that have exited (their time is in their parent's
 * cutime/cstime once reaped): vsftpd forks a process per session.
 */
function cpuSeconds(pid: number | undefined, { tree = false } = {}): number {
  if (pid === undefined) return 0;
  try {
    // After the command name (which may contain spaces): utime, stime, cutime, cstime are fields 12-15.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    const own = ((f[11] ?? 0) + (f[12] ?? 0)) / 100;
    if (!tree) return own;
    const reaped = ((f[13] ?? 0) + (f[14] ?? 0)) / 100;
    return own + reaped + childPids(pid).reduce((sum, child) => sum + cpuSeconds(child, { tree }), 0);
  } catch {
    return 0;
  }
}

type Cpu = { server: number; database: number; destinations: number; cameras: number };

/**
 * CPU seconds used by the server (with --split-ingest: both server processes), its database
 * process, the destination process and this process (the cameras) from now on.
 */
function cpuMeter(servers: ServerProcess[], destinations: Destinations): () => Cpu {
  const server = servers[0] as ServerProcess;
  const read = (): Cpu => {
    const own = process.cpuUsage();
    return {
      server: servers.reduce((sum, s) => sum + cpuSeconds(s.pid), 0),
      database: cpuSeconds(server.dbPid),
      destinations: cpuSeconds(destinations.pid, { tree: true }),
      cameras: (own.user + own.system) / 1e6,
    };
  };
  const start = read();
  return () => {
    const end = read();
    return {
      server: end.server - start.server,
      database: end.database - start.database,
      destinations: end.destinations - start.destinations,
      cameras: end.cameras - start.cameras,
    };
  };
}

/**
 * Resident memory of the server, of its embedded database process (0 on PostgreSQL), and of
 * both together: the server's RSS plus the database process's private memory, so that the
 * pages of node's own code, which both map, count once.
 */
interface Rss {
  server: number;
  db: number;
  both: number;
}
const rssNow = (server: ServerProcess): Rss => {
  const [own, db] = [server.rss(), server.dbRss()];
  return { server: own, db, both: own + (db > 0 ? server.dbPrivate() : 0) };
};

/** Samples resident memory every `everyMs` until stopped; returns the highest values seen. */
function sampleRss(server: ServerProcess, everyMs = 50) {
  const max = rssNow(server);
  const sample = () => {
    const now = rssNow(server);
    max.server = Math.max(max.server, now.server);
    max.db = Math.max(max.db, now.db);
    max.both = Math.max(max.both, now.both);
  };
  const timer = setInterval(sample, everyMs);
  return (): Rss => {
    clearInterval(timer);
    sample();
    return max;
  };
}

// ---------------------------------------------------------------------------------------------
// The product

async function setupProject(
  client: TestClient,
  data: PreparedData,
  name: string,
  destinations: Destinations | undefined,
  remotePath: string,
) {
  const api = (suffix: string) => `/api/${data.team.teamUuid}${suffix}`;
  const created = await client.post<{ projectId: number }>(api('/project'), {
    name,
    parentFolderId: data.team.projectsRootId,
  });
  if (created.status !== 200) throw new Error(`create project: ${JSON.stringify(created.body)}`);
  const id = created.body.projectId;
  for (const [i, port] of (destinations?.ports ?? []).entries()) {
    const server = await client.post<{ ftpserverid: number }>(api('/ftpserver'), {
      name: `${name} destination ${i + 1}`,
      host: '127.0.0.1',
      port,
      path: [destinations?.root, remotePath].filter(Boolean).join('/'),
      protocol: 'ftp',
      username: destinations?.user,
      password: destinations?.password,
      parentFolderId: data.team.ftpserversRootId,
    });
    if (server.status !== 200) throw new Error(`create ftp server: ${JSON.stringify(server.body)}`);
    await client.post(api(`/project/${id}/ftpserver/${server.body.ftpserverid}`));
  }
  const project = await client.get<{
    project: { ftpAccounts: Array<{ username: string; password: string }> };
  }>(api(`/project/${id}`));
  const account = project.body.project.ftpAccounts[0];
  if (!account) throw new Error('project has no ingest account');
  return { id, account };
}

async function* generated(bytes: number): AsyncGenerator<Buffer> {
  const block = crypto.randomBytes(MB);
  for (let sent = 0, n = 0; sent < bytes; n++) {
    const chunk = Buffer.from(block.subarray(0, Math.min(MB, bytes - sent)));
    chunk.writeUInt32BE(n, 0);
    sent += chunk.length;
    yield chunk;
  }
}

// ---------------------------------------------------------------------------------------------

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const mb = (bytes: number) => `${fmt(bytes / MB)} MB`;
/** "median (min-max)" of a figure over the rounds; of an even count the lower middle value. */
const spread = (values: number[], digits = 0) =>
  values.length > 1
    ? `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}-${fmt(Math.max(...values), digits)})`
    : fmt(values[0] ?? Number.NaN, digits);

async function main() {
  const work = fs.mkdtempSync(path.join(opts.dir as string, 'photorelay-bench-pipeline-'));
  const cleanups: Array<() => Promise<unknown> | unknown> = [
    () => fs.rmSync(work, { recursive: true, force: true }),
  ];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => {});
  };
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  try {
    log(
      `machine: ${os.cpus().length} vCPU (${os.cpus()[0]?.model.trim()}), Node ${process.version}, ${os.platform()} ${os.release()}, load ${os.loadavg()[0]?.toFixed(1)}`,
    );
    let t = performance.now();
    const files = await generateFiles(work);
    const totalBytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
    const gb = totalBytes / 1024 ** 3;
    log(
      `generated ${files.length} JPEGs of ${fmt(fileBytes / MB, 1)} MB (${mb(totalBytes)}) in ${opts.dir} in ${fmt(performance.now() - t)} ms`,
    );

    const destinations = await startDestinations(2, opts.destinations ?? 'ours');
    cleanups.push(() => destinations.stop());
    const data = await prepareData();
    cleanups.push(() => data.remove());
    const server = await serverProcess({
      fromSource: opts.tsx,
      dataDir: data.dataDir,
      databaseUrl: data.databaseUrl,
      env: { JOB_LEASE_SECONDS: '60', LOG_LEVEL: 'warn' },
      nodeArgs: [
        ...(opts['node-flags'] ?? '').split(' ').filter(Boolean),
        ...(opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.profile)}`] : []),
      ],
    });
    t = performance.now();
    await server.start();
    cleanups.push(() => server.stop());
    log(
      `server process started in ${fmt(performance.now() - t)} ms (${opts.tsx ? 'main.ts through tsx' : 'bundle, plain node'}; database: ${opts.postgres ? 'PostgreSQL' : 'PGlite'}; DATA_DIR in ${os.tmpdir()})`,
    );
    // Split roles: a second process takes the cameras' uploads; this one delivers (and serves the API).
    let ingestServer = server;
    if (opts['split-ingest']) {
      ingestServer = await serverProcess({
        dataDir: data.dataDir,
        databaseUrl: data.databaseUrl,
        env: { LOG_LEVEL: 'warn' },
        role: 'ingest',
        fromSource: opts.tsx,
      });
      await ingestServer.start();
      cleanups.push(() => ingestServer.stop());
      log(
        'cameras upload to a second server process that runs only the ingest (--role ingest); CPU counts both, memory the first',
      );
    }
    const servers = [...new Set([server, ingestServer])];
    const owner = await server.login(data.team.email, data.team.password);
    const project = await setupProject(owner, data, 'Pipeline', destinations, 'pipeline');
    const ingestOnlyProject = await setupProject(owner, data, 'No destinations', undefined, '');
    const ingest: Target = {
      port: ingestServer.ftpPort,
      user: project.account.username,
      password: project.account.password,
    };
    const ingestOnly: Target = {
      port: ingestServer.ftpPort,
      user: ingestOnlyProject.account.username,
      password: ingestOnlyProject.account.password,
    };
    const direct: Target = {
      port: destinations.ports[0] as number,
      user: destinations.user,
      password: destinations.password,
    };
    // A file uploaded as dir/name is delivered to the destination's path ('pipeline') plus dir/name.
    const at = (uploaded: string) => `pipeline/${uploaded}`;

    // Warm-up: JIT, connection pool, page cache.
    const warm = files.slice(0, Math.min(8, files.length));
    // The direct baseline writes where the destination allows it (vsftpd: incoming/).
    const directDir = (dir: string) => [destinations.root, dir].filter(Boolean).join('/');
    await uploadAll(direct, warm, directDir('warmup'), clientCount);
    const warmup = await uploadAll(ingest, warm, 'warmup', clientCount);
    await destinations.waitDelivered([...warmup.ackAt.keys()].map(at), 60_000);
    await sleep(1000);
    const idleRss = rssNow(server);

    const r = {
      baseline: [] as number[],
      ingestOnly: [] as number[],
      pipeline: [] as number[],
      endToEnd: [] as number[],
      p50: [] as number[],
      p99: [] as number[],
      peakRss: [] as Rss[],
      cpuBaseline: [] as Cpu[],
      cpuIngestOnly: [] as Cpu[],
      cpuPipeline: [] as Cpu[],
    };
    for (let round = 1; round <= rounds; round++) {
      // Baseline: the same cameras straight to one destination server.
      let cpu = cpuMeter(servers, destinations);
      const baseline = await uploadAll(direct, files, directDir(`baseline-${round}`), clientCount);
      r.cpuBaseline.push(cpu());
      r.baseline.push(totalBytes / MB / (baseline.ms / 1000));

      // PhotoRelay ingest alone: a project without destinations.
      cpu = cpuMeter(servers, destinations);
      const only = await uploadAll(ingestOnly, files, `round-${round}`, clientCount);
      r.cpuIngestOnly.push(cpu());
      r.ingestOnly.push(totalBytes / MB / (only.ms / 1000));
      await sleep(1000);

      // The pipeline: ingest and deliver to both destinations, cameras sending flat out.
      const startedAt = Date.now();
      const rss = sampleRss(server);
      cpu = cpuMeter(servers, destinations);
      const pipe = await uploadAll(ingest, files, `round-${round}`, clientCount);
      const delivered = [...pipe.ackAt.keys()].map(at);
      await destinations.waitDelivered(delivered, 600_000);
      r.cpuPipeline.push(cpu());
      r.peakRss.push(rss());
      const lastDelivery = Math.max(...delivered.map((p) => destinations.deliveredEverywhere(p) ?? 0));
      const latencies = [...pipe.ackAt].map(
        ([p, ack]) => (destinations.deliveredEverywhere(at(p)) ?? 0) - ack,
      );
      r.pipeline.push(totalBytes / MB / (pipe.ms / 1000));
      r.endToEnd.push(totalBytes / MB / ((lastDelivery - startedAt) / 1000));
      r.p50.push(percentile(latencies, 50));
      r.p99.push(percentile(latencies, 99));
      log(
        `round ${round}: baseline ${fmt(r.baseline.at(-1) ?? 0, 1)} MB/s, ingest only ${fmt(r.ingestOnly.at(-1) ?? 0, 1)} MB/s, ` +
          `pipeline ${fmt(r.pipeline.at(-1) ?? 0, 1)} MB/s (end to end ${fmt(r.endToEnd.at(-1) ?? 0, 1)}), ` +
          `latency p50 ${fmt(r.p50.at(-1) ?? 0)} ms, p99 ${fmt(r.p99.at(-1) ?? 0)} ms`,
      );
      await sleep(1000);
    }

    // Paced: a steady offered load the pipeline can carry (cameras at an event, not flat out).
    const pacedFiles = files.slice(0, pacedCount);
    const intervalMs = (fileBytes / MB / pacedRate) * 1000;
    const pacedRss = sampleRss(server);
    const paced = await uploadAll(ingest, pacedFiles, 'paced', clientCount, intervalMs);
    await destinations.waitDelivered([...paced.ackAt.keys()].map(at), 600_000);
    const pacedPeakRss = pacedRss();
    const pacedLatency = [...paced.ackAt].map(
      ([p, ack]) => (destinations.deliveredEverywhere(at(p)) ?? 0) - ack,
    );
    const pacedAchieved = (pacedFiles.length * fileBytes) / MB / (paced.ms / 1000);

    // One big upload, streamed from a generator (never a file or a buffer of that size).
    let big: { rate: number; before: Rss; uploadRss: Rss; deliveryRss: Rss; deliveryMs: number } | undefined;
    if (!opts['skip-big']) {
      const bigProject = await setupProject(owner, data, 'Big', destinations, 'big');
      await sleep(1000);
      const before = rssNow(server);
      const client = await connect({
        port: ingestServer.ftpPort,
        user: bigProject.account.username,
        password: bigProject.account.password,
      });
      const uploadSample = sampleRss(server);
      const started = performance.now();
      await client.uploadFrom(Readable.from(generated(bigBytes)), 'BIG.JPG');
      const uploadMs = performance.now() - started;
      const uploadRss = uploadSample();
      client.close();
      const deliverySample = sampleRss(server);
      const deliveryStart = performance.now();
      await destinations.waitDelivered(['big/BIG.JPG'], 600_000); // the Big project's path is 'big'
      const deliveryMs = performance.now() - deliveryStart;
      big = {
        rate: bigBytes / MB / (uploadMs / 1000),
        before,
        uploadRss,
        deliveryRss: deliverySample(),
        deliveryMs,
      };
    }
    const hwm = { server: server.peakRss(), db: server.dbPeakRss() };

    // ------------------------------------------------------------------------------------------
    const ratios = r.pipeline.map((p, i) => p / (r.baseline[i] ?? Number.NaN));
    const ratio = median(ratios);
    const p50 = median(r.p50);
    const pacedP50 = percentile(pacedLatency, 50);
    const peaks = [...r.peakRss, pacedPeakRss];
    const peak: Rss = {
      server: Math.max(...peaks.map((p) => p.server)),
      db: Math.max(...peaks.map((p) => p.db)),
      both: Math.max(...peaks.map((p) => p.both)),
    };
    const embedded = !opts.postgres;
    /** Memory rows: the server process, and on PGlite its database process and both together. */
    const memoryRows = (label: string, value: Rss, goalMb?: number, note = ''): string[][] => {
      const verdict = (bytes: number) =>
        goalMb === undefined ? '' : `< ${goalMb} MB: ${bytes < goalMb * MB ? 'met' : 'NOT met'}`;
      const rows = [
        [`${label}, MB: server process`, fmt(value.server / MB), '', `${verdict(value.server)}${note}`],
      ];
      if (embedded)
        rows.push(
          ['  + embedded database process (PGlite)', fmt(value.db / MB), '', ''],
          ['  = both processes (shared code once)', fmt(value.both / MB), '', verdict(value.both)],
        );
      return rows;
    };
    const perGB = (list: Cpu[], key: keyof Cpu) =>
      spread(
        list.map((c) => c[key] / gb),
        1,
      );
    const rows: string[][] = [
      ['measure', 'PhotoRelay', 'baseline', 'goal'],
      [
        'ingest rate, MB/s received (until the last 226)',
        spread(r.pipeline, 1),
        `${spread(r.baseline, 1)} direct`,
        `≥ 30 % of baseline: ${fmt(ratio * 100)} % (${ratios.map((x) => fmt(x * 100)).join(', ')}) ${ratio >= 0.3 ? 'met' : 'NOT met'}`,
      ],
      [
        '  same, project without destinations',
        spread(r.ingestOnly, 1),
        '',
        `${fmt((median(r.ingestOnly) / median(r.baseline)) * 100)} % of baseline`,
      ],
      ['  end to end, MB/s (until delivered to both)', spread(r.endToEnd, 1), '', ''],
      [
        'latency 226 -> delivered to both, p50 ms (flat out)',
        spread(r.p50),
        '',
        `< 250 ms: ${p50 < 250 ? 'met' : 'NOT met'}`,
      ],
      ['  p99 ms (flat out)', spread(r.p99), '', ''],
      [
        `latency at ${fmt(pacedRate)} MB/s offered (${pacedFiles.length} files), p50 ms`,
        fmt(pacedP50),
        '',
        `< 250 ms: ${pacedP50 < 250 ? 'met' : 'NOT met'} (achieved ${fmt(pacedAchieved, 1)} MB/s)`,
      ],
      ['  p99 ms', fmt(percentile(pacedLatency, 99)), '', ''],
      ...memoryRows('RSS idle', idleRss),
      ...memoryRows('RSS peak during the transfers', peak, 300),
    ];
    if (big) {
      rows.push(
        [`${fmt(bigBytes / 1024 ** 3, 2)} GiB upload, MB/s`, fmt(big.rate, 1), '', ''],
        ...memoryRows(
          '  RSS peak while uploading',
          big.uploadRss,
          200,
          ` (+${fmt((big.uploadRss.server - big.before.server) / MB)} MB over the ${fmt(big.before.server / MB)} MB before)`,
        ),
        ...memoryRows('  RSS peak while delivering it to both', big.deliveryRss).map((row, i) =>
          i === 0 ? [...row.slice(0, 3), `took ${fmt(big.deliveryMs / 1000, 1)} s`] : row,
        ),
      );
    }
    rows.push(
      ['peak RSS over the whole run (VmHWM), MB: server process', fmt(hwm.server / MB), '', ''],
      ...(embedded ? [['  embedded database process', fmt(hwm.db / MB), '', '']] : []),
      ['CPU s per GB, server: ingest + 2 deliveries', perGB(r.cpuPipeline, 'server'), '', ''],
      ...(embedded ? [['  embedded database process', perGB(r.cpuPipeline, 'database'), '', '']] : []),
      ['CPU s per GB, server: ingest only', perGB(r.cpuIngestOnly, 'server'), '', ''],
      ...(embedded ? [['  embedded database process', perGB(r.cpuIngestOnly, 'database'), '', '']] : []),
      [
        'CPU s per GB, destination servers',
        perGB(r.cpuPipeline, 'destinations'),
        perGB(r.cpuBaseline, 'destinations'),
        '',
      ],
      [
        'CPU s per GB, cameras (this process)',
        perGB(r.cpuPipeline, 'cameras'),
        perGB(r.cpuBaseline, 'cameras'),
        '',
      ],
    );
    log('');
    log(
      `${files.length} files, ${mb(totalBytes)}, ${clientCount} FTP cameras, 2 ${opts.destinations === 'vsftpd' ? 'vsftpd' : 'FTP (ours)'} destinations (own processes), ${rounds} round(s): median (lower middle of an even count) (min-max)`,
    );
    const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)));
    for (const row of rows)
      log(
        row
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      );
  } finally {
    await cleanup();
  }
}

await main();
