import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { Client as FtpClient } from 'basic-ftp';
import type { TestClient } from '../../test/support/client.ts';
import {
  freePort,
  sha256,
  startFtpDestination,
  startSftpDestination,
  type TempDirDestination,
} from '../../test/support/destinations.ts';
import { copyData, type PreparedData, prepareData } from '../../test/support/prepared-data.ts';
import { type ServerProcess, serverProcess } from '../../test/support/process.ts';
import { startVsftpd, type Vsftpd, vsftpdAvailable } from '../../test/support/vsftpd.ts';

/**
 * Faults with real processes and real clients: the server runs as a child process (killed with
 * SIGKILL mid-transfer and started again on the same DATA_DIR), cameras are basic-ftp clients,
 * destinations are our FTP/SFTP servers over temp folders and Debian's vsftpd.
 */

type Job = {
  id: number;
  filename: string;
  state: string;
  trynumber: number;
  errortext: string | null;
  ftpservername: string | null;
};
type Account = { username: string; password: string };

const hasVsftpd = vsftpdAvailable();
let data: PreparedData;
let privateData: PreparedData;
let server: ServerProcess;
/** The same product with ALLOW_PRIVATE_NETWORKS=0 (its own copy of the data). */
let strictServer: ServerProcess;
let owner: TestClient;
let strictOwner: TestClient;
let ftpDest: TempDirDestination;
let sftpDest: TempDirDestination;
let vsftpd: Vsftpd | undefined;
const extraDestinations: TempDirDestination[] = [];

const login = (d: { username: string; password: string }) => ({ username: d.username, password: d.password });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value other than undefined/false; bounded by `timeoutMs`. */
async function waitFor<T>(
  label: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await sleep(100);
  }
}

before(async () => {
  data = await prepareData();
  privateData = await copyData(data);
  [ftpDest, sftpDest, vsftpd] = await Promise.all([
    startFtpDestination(),
    startSftpDestination(),
    hasVsftpd ? startVsftpd() : Promise.resolve(undefined),
  ]);
  server = await serverProcess({ dataDir: data.dataDir, databaseUrl: data.databaseUrl });
  strictServer = await serverProcess({
    dataDir: privateData.dataDir,
    databaseUrl: privateData.databaseUrl,
    env: { ALLOW_PRIVATE_NETWORKS: '0' },
  });
  await Promise.all([server.start(), strictServer.start()]);
  owner = await server.login(data.team.email, data.team.password);
  strictOwner = await strictServer.login(data.team.email, data.team.password);
});

after(async () => {
  await Promise.allSettled([server?.stop(), strictServer?.stop()]);
  await Promise.allSettled([
    ftpDest?.close(),
    sftpDest?.close(),
    vsftpd?.stop(),
    ...extraDestinations.map((d) => d.close()),
  ]);
  await Promise.allSettled([data?.remove(), privateData?.remove()]);
});

const api = (suffix: string) => `/api/${data.team.teamUuid}${suffix}`;

async function createProject(client: TestClient, name: string): Promise<{ id: number; account: Account }> {
  const created = await client.post<{ projectId: number }>(api('/project'), {
    name,
    parentFolderId: data.team.projectsRootId,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const project = await client.get<{ project: { ftpAccounts: Account[] } }>(
    api(`/project/${created.body.projectId}`),
  );
  assert.equal(project.status, 200);
  return { id: created.body.projectId, account: project.body.project.ftpAccounts[0] };
}

async function addDestination(
  client: TestClient,
  projectId: number,
  d: {
    name: string;
    port: number;
    path: string;
    protocol: 'ftp' | 'ftps' | 'sftp';
    username: string;
    password: string;
  },
): Promise<number> {
  const created = await client.post<{ ftpserverid: number }>(api('/ftpserver'), {
    ...d,
    host: '127.0.0.1',
    parentFolderId: data.team.ftpserversRootId,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const linked = await client.post(api(`/project/${projectId}/ftpserver/${created.body.ftpserverid}`));
  assert.equal(linked.status, 200, JSON.stringify(linked.body));
  return created.body.ftpserverid;
}

async function jobsOf(client: TestClient, projectId: number): Promise<Job[]> {
  const res = await client.post<{ jobs: Job[]; count: number }>(api('/jobs/500/0'), { projectid: projectId });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.jobs;
}

async function connectCamera(port: number, account: Account): Promise<FtpClient> {
  const client = new FtpClient(10_000);
  try {
    await client.access({ host: '127.0.0.1', port, user: account.username, password: account.password });
  } catch (err) {
    client.close();
    throw err;
  }
  return client;
}

/** Uploads one file; resolves after the server's 226. */
async function upload(camera: FtpClient, remotePath: string, content: Buffer): Promise<void> {
  await camera.cd('/');
  const dir = path.posix.dirname(remotePath);
  if (dir !== '.') await camera.ensureDir(dir);
  await camera.uploadFrom(Readable.from([content]), path.posix.basename(remotePath));
}

async function uploadOnce(port: number, account: Account, remotePath: string, content: Buffer) {
  const camera = await connectCamera(port, account);
  try {
    await upload(camera, remotePath, content);
  } finally {
    camera.close();
  }
}

/** Every file of `files` at `read(dir/name)` with the same content. Returns what is missing or different. */
function undelivered(files: Map<string, string>, read: (p: string) => Buffer | null, dir: string): string[] {
  return [...files]
    .filter(([name, sum]) => {
      const got = read(`${dir}/${name}`);
      return !got || sha256(got) !== sum;
    })
    .map(([name]) => name);
}

describe('destination faults', () => {
  test('a destination that is down fails a try with the error, then delivers once it is back', async () => {
    const down = await startFtpDestination({ started: false });
    extraDestinations.push(down);
    const project = await createProject(owner, 'Down and back');
    await addDestination(owner, project.id, {
      name: 'Comes back later',
      port: down.port,
      path: 'back',
      protocol: 'ftp',
      ...login(down),
    });
    const picture = crypto.randomBytes(600_000);
    await uploadOnce(server.ftpPort, project.account, 'IMG_0001.JPG', picture);

    const failed = await waitFor('the first try to fail', async () => {
      const [job] = await jobsOf(owner, project.id);
      return job?.trynumber === 1 ? job : undefined;
    });
    assert.equal(failed.state, 'scheduled', 'scheduled again, not given up');
    assert.match(failed.errortext ?? '', new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${down.port}`));

    await down.start();
    const retried = await owner.post(api(`/job/${failed.id}/retry`));
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    const done = await waitFor('the retry to deliver', async () => {
      const [job] = await jobsOf(owner, project.id);
      return job?.state === 'succeeded' ? job : undefined;
    });
    assert.equal(done.errortext, null);
    assert.equal(sha256(down.read('back/IMG_0001.JPG') ?? ''), sha256(picture));
    assert.deepEqual(down.tempFiles(), []);
  });

  test('a path that cannot be created, a closed port: the job is retried with the error text', async () => {
    const project = await createProject(owner, 'Broken destinations');
    // Our FTP server: a file stands where the folder should be made.
    fs.mkdirSync(ftpDest.file('blocked'), { recursive: true });
    fs.writeFileSync(ftpDest.file('blocked/file'), 'not a folder');
    await addDestination(owner, project.id, {
      name: 'File in the way',
      port: ftpDest.port,
      path: 'blocked/file/sub',
      protocol: 'ftp',
      ...login(ftpDest),
    });
    // vsftpd: anonymous users may only write in incoming/.
    if (vsftpd) {
      await addDestination(owner, project.id, {
        name: 'vsftpd, no rights',
        port: vsftpd.port,
        path: 'not-writable/sub',
        protocol: 'ftp',
        username: vsftpd.username,
        password: vsftpd.password,
      });
    }
    const closed = await freePort();
    await addDestination(owner, project.id, {
      name: 'SFTP, nobody listening',
      port: closed,
      path: 'x',
      protocol: 'sftp',
      username: 'agency',
      password: 'agency-pw',
    });
    await uploadOnce(server.ftpPort, project.account, 'IMG_0002.JPG', crypto.randomBytes(100_000));

    const expected = vsftpd ? 3 : 2;
    const jobs = await waitFor('every destination to fail one try', async () => {
      const list = await jobsOf(owner, project.id);
      return list.length === expected && list.every((j) => j.trynumber === 1) ? list : undefined;
    });
    const byServer = new Map(jobs.map((j) => [j.ftpservername, j]));
    for (const job of jobs) assert.equal(job.state, 'scheduled', JSON.stringify(job));
    // The folder it could not make, then the server's reply (issue 28: the cause names the folder).
    assert.match(byServer.get('File in the way')?.errortext ?? '', /^Folder \S+ could not be created: 550 /);
    if (vsftpd) {
      // The server's own reply, word for word.
      assert.match(
        byServer.get('vsftpd, no rights')?.errortext ?? '',
        /^(Folder \S+ could not be created: )?550 (Create directory operation failed|Failed to change directory)/,
      );
    }
    assert.match(
      byServer.get('SFTP, nobody listening')?.errortext ?? '',
      new RegExp(`ECONNREFUSED.*${closed}`),
    );
    assert.deepEqual(ftpDest.files('blocked'), ['blocked/file']);
  });

  test('ALLOW_PRIVATE_NETWORKS=0: a destination on 127.0.0.1 is refused with a clear error', async () => {
    const project = await createProject(strictOwner, 'Private network');
    await addDestination(strictOwner, project.id, {
      name: 'Loopback',
      port: ftpDest.port,
      path: 'private',
      protocol: 'ftp',
      ...login(ftpDest),
    });
    await uploadOnce(strictServer.ftpPort, project.account, 'IMG_0003.JPG', crypto.randomBytes(50_000));
    const job = await waitFor('the refused try', async () => {
      const [j] = await jobsOf(strictOwner, project.id);
      return j?.trynumber === 1 ? j : undefined;
    });
    assert.equal(job.state, 'scheduled');
    assert.equal(
      job.errortext,
      'Host 127.0.0.1 (127.0.0.1) is a local or private network address; connections there are not allowed',
    );
    assert.deepEqual(ftpDest.files('private'), [], 'nothing was sent');
  });
});

describe('server killed with SIGKILL', () => {
  test('every acknowledged upload reaches every destination byte for byte; no job stays running', {
    timeout: 90_000,
  }, async (t) => {
    const project = await createProject(owner, 'Crash');
    await addDestination(owner, project.id, {
      name: 'FTP',
      port: ftpDest.port,
      path: 'crash',
      protocol: 'ftp',
      ...login(ftpDest),
    });
    await addDestination(owner, project.id, {
      name: 'SFTP',
      port: sftpDest.port,
      path: 'crash',
      protocol: 'sftp',
      ...login(sftpDest),
    });
    // Slow deliveries to the FTP destination, so that kills land in the middle of them.
    ftpDest.backend.storeDelayMs = 150;

    const acknowledged = new Map<string, string>();
    let attempts = 0;
    let failedAttempts = 0;
    let stop = false;
    const deadline = Date.now() + 60_000;
    const camera = async (index: number) => {
      let client: FtpClient | undefined;
      for (let n = 0; !stop && Date.now() < deadline; n++) {
        const name = `cam${index}/IMG_${String(n).padStart(4, '0')}.JPG`;
        const content = crypto.randomBytes(100_000 + crypto.randomInt(900_000));
        attempts++;
        try {
          client ??= await connectCamera(server.ftpPort, project.account);
          await upload(client, name, content);
          acknowledged.set(name, sha256(content));
        } catch {
          // Not acknowledged (the server is down or went down): it may or may not have been recorded.
          failedAttempts++;
          client?.close();
          client = undefined;
          await sleep(100);
        }
      }
      client?.close();
    };
    const cameras = Array.from({ length: 4 }, (_, i) => camera(i));

    // Deliveries to the FTP destination whose data is arriving or being stored right now.
    const deliveriesInFlight = () => {
      const events = ftpDest.backend.events;
      return (
        events.filter((e) => e.startsWith('store:start crash/')).length -
        events.filter((e) => /^store:(done|discarded) crash\//.test(e)).length
      );
    };
    // Two crashes, each while cameras upload and at least one delivery is under way: the first
    // early, the second with a backlog of deliveries.
    for (const ackedBeforeKill of [10, 30]) {
      await waitFor(
        `${ackedBeforeKill} acknowledged uploads`,
        () => acknowledged.size >= ackedBeforeKill,
        30_000,
      );
      await waitFor('a delivery in flight', () => deliveriesInFlight() > 0, 10_000);
      t.diagnostic(
        `kill at ${acknowledged.size} acknowledged uploads, ${deliveriesInFlight()} FTP deliveries in flight`,
      );
      await server.kill('SIGKILL');
      await sleep(200);
      await server.start();
    }
    await waitFor('40 acknowledged uploads', () => acknowledged.size >= 40, 30_000);
    stop = true;
    await Promise.all(cameras);
    ftpDest.backend.storeDelayMs = 0;

    await waitFor(
      'every acknowledged file at both destinations',
      () =>
        undelivered(acknowledged, (p) => ftpDest.read(p), 'crash').length === 0 &&
        undelivered(acknowledged, (p) => sftpDest.read(p), 'crash').length === 0,
      45_000,
    ).catch((err: Error) => {
      throw new Error(
        `${err.message}: missing at FTP ${undelivered(acknowledged, (p) => ftpDest.read(p), 'crash').join(', ')}; ` +
          `at SFTP ${undelivered(acknowledged, (p) => sftpDest.read(p), 'crash').join(', ')}\n${server.output()}`,
      );
    });

    // Every recorded upload (acknowledged or not) is delivered and no job is left running.
    const jobs = await waitFor(
      'all jobs to finish',
      async () => {
        const list = await jobsOf(owner, project.id);
        return list.every((j) => j.state === 'succeeded') ? list : undefined;
      },
      15_000,
    ).catch(async (err: Error) => {
      const list = await jobsOf(owner, project.id);
      throw new Error(`${err.message}: ${JSON.stringify(list.filter((j) => j.state !== 'succeeded'))}`);
    });
    const recorded = new Set(jobs.map((j) => j.filename));
    for (const name of acknowledged.keys())
      assert.ok(recorded.has(name), `acknowledged upload ${name} was recorded`);
    for (const name of recorded) {
      assert.equal(jobs.filter((j) => j.filename === name).length, 2, `${name}: one job per destination`);
    }
    t.diagnostic(
      `${attempts} upload attempts, ${acknowledged.size} acknowledged, ${recorded.size} recorded, ` +
        `${jobs.filter((j) => j.trynumber > 0).length} jobs with failed tries, ` +
        `jobs retried after a kill: ${jobs.filter((j) => j.trynumber === 0).length < jobs.length ? 'some' : 'none'}`,
    );
    // Recorded but never acknowledged (killed between the record and the 226) is fine: delivered too.
    assert.ok(recorded.size >= acknowledged.size);
    assert.ok(failedAttempts > 0 && attempts > acknowledged.size, 'the kills did interrupt uploads');
    // A retry writes over the temporary file of its interrupted try (it is named after the job).
    assert.deepEqual(ftpDest.tempFiles('crash'), [], 'no temporary file left at the FTP destination');
    assert.deepEqual(sftpDest.tempFiles('crash'), [], 'no temporary file left at the SFTP destination');
  });
});

describe('load', () => {
  test('50 uploads from 10 parallel cameras reach two destinations', { timeout: 60_000 }, async () => {
    const project = await createProject(owner, 'Parallel');
    await addDestination(owner, project.id, {
      name: 'Ours',
      port: ftpDest.port,
      path: 'parallel',
      protocol: 'ftp',
      ...login(ftpDest),
    });
    const second = vsftpd
      ? {
          name: 'vsftpd',
          port: vsftpd.port,
          path: 'incoming/parallel',
          username: vsftpd.username,
          password: vsftpd.password,
        }
      : {
          name: 'SFTP',
          port: sftpDest.port,
          path: 'parallel',
          username: sftpDest.username,
          password: sftpDest.password,
        };
    await addDestination(owner, project.id, {
      ...second,
      protocol: vsftpd ? 'ftp' : 'sftp',
    });
    const readSecond = (p: string) => (vsftpd ? vsftpd.read(`incoming/${p}`) : sftpDest.read(p));

    const files = new Map<string, string>();
    await Promise.all(
      Array.from({ length: 10 }, async (_, cam) => {
        const client = await connectCamera(server.ftpPort, project.account);
        try {
          for (let n = 0; n < 5; n++) {
            const name = `c${cam}/DSC_${n}.JPG`;
            const content = crypto.randomBytes(50_000 + crypto.randomInt(350_000));
            await upload(client, name, content);
            files.set(name, sha256(content));
          }
        } finally {
          client.close();
        }
      }),
    );
    assert.equal(files.size, 50);

    const jobs = await waitFor(
      '100 deliveries',
      async () => {
        const list = await jobsOf(owner, project.id);
        return list.length === 100 && list.every((j) => j.state === 'succeeded') ? list : undefined;
      },
      40_000,
    );
    assert.equal(jobs.filter((j) => j.trynumber > 0).length, 0, 'no delivery needed a second try');
    assert.deepEqual(
      undelivered(files, (p) => ftpDest.read(p), 'parallel'),
      [],
    );
    assert.deepEqual(undelivered(files, readSecond, 'parallel'), []);
    assert.deepEqual(ftpDest.tempFiles('parallel'), []);
    if (vsftpd) assert.deepEqual(vsftpd.tempFiles('incoming/parallel'), []);
  });
});
