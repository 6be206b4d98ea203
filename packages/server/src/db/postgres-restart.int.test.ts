import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { Client as FtpClient } from 'basic-ftp';
import type { TestClient } from '../../test/support/client.ts';
import { testBackend } from '../../test/support/database.ts';
import { sha256, startFtpDestination, type TempDirDestination } from '../../test/support/destinations.ts';
import { type PostgresCluster, startPostgresCluster } from '../../test/support/postgres-cluster.ts';
import { type PreparedData, prepareData } from '../../test/support/prepared-data.ts';
import { type ServerProcess, serverProcess } from '../../test/support/process.ts';

/**
 * Issue 29, 1: the server on a PostgreSQL that restarts (`pg_ctl restart -m fast`, as in a
 * fail-over) stays up, reconnects and delivers every upload it acknowledged; started while the
 * database is down it waits, and health answers "database unavailable" meanwhile. The cluster is
 * the test's own (never the shared TEST_DATABASE_URL server), so the file runs once: in the
 * PGlite pass of the suite.
 */

const once = testBackend() === 'postgres' && 'runs once, in the PGlite pass (it starts its own PostgreSQL)';
type Account = { username: string; password: string };

let cluster: PostgresCluster;
let data: PreparedData;
let server: ServerProcess;
let owner: TestClient;
let dest: TempDirDestination;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(label: string, check: () => Promise<T | undefined | false>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}\n${server.output()}`);
    await sleep(200);
  }
}

const api = (suffix: string) => `/api/${data.team.teamUuid}${suffix}`;

/** Status 0: nothing listens (the server between its wait and its app). */
async function health(): Promise<{ status: number; body: unknown }> {
  try {
    const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(5000) });
    return { status: res.status, body: await res.json() };
  } catch {
    return { status: 0, body: null };
  }
}

async function createProjectWithDestination(name: string): Promise<Account> {
  const created = await owner.post<{ projectId: number }>(api('/project'), {
    name,
    parentFolderId: data.team.projectsRootId,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const project = await owner.get<{ project: { ftpAccounts: Account[] } }>(
    api(`/project/${created.body.projectId}`),
  );
  const destination = await owner.post<{ ftpserverid: number }>(api('/ftpserver'), {
    name: `${name} agency`,
    host: '127.0.0.1',
    port: dest.port,
    path: name,
    protocol: 'ftp',
    username: dest.username,
    password: dest.password,
    parentFolderId: data.team.ftpserversRootId,
  });
  assert.equal(destination.status, 200, JSON.stringify(destination.body));
  const linked = await owner.post(
    api(`/project/${created.body.projectId}/ftpserver/${destination.body.ftpserverid}`),
  );
  assert.equal(linked.status, 200, JSON.stringify(linked.body));
  return project.body.project.ftpAccounts[0] as Account;
}

/**
 * A camera uploading one picture after another until `until` resolves; an upload refused or cut
 * off (the database was away) is tried again, as cameras do. Returns the acknowledged ones.
 */
async function camera(port: number, account: Account, prefix: string, until: Promise<void>) {
  const acknowledged = new Map<string, string>();
  let done = false;
  void until.then(() => {
    done = true;
  });
  let client: FtpClient | undefined;
  for (let n = 1; !done; ) {
    const name = `${prefix}_${String(n).padStart(4, '0')}.JPG`;
    const picture = crypto.randomBytes(20_000 + ((n * 7919) % 60_000));
    try {
      if (!client) {
        client = new FtpClient(10_000);
        await client.access({ host: '127.0.0.1', port, user: account.username, password: account.password });
      }
      await client.uploadFrom(Readable.from([picture]), name);
      acknowledged.set(name, sha256(picture));
      n += 1;
    } catch {
      client?.close();
      client = undefined;
      await sleep(200);
    }
  }
  client?.close();
  return acknowledged;
}

before(async () => {
  if (once) return;
  cluster = await startPostgresCluster();
  data = await prepareData({ postgresUrl: cluster.url });
  dest = await startFtpDestination();
  server = await serverProcess({ dataDir: data.dataDir, databaseUrl: data.databaseUrl });
  await server.start();
  owner = await server.login(data.team.email, data.team.password);
});

after(async () => {
  await server?.stop();
  await dest?.close();
  await data?.remove().catch(() => {});
  await cluster?.remove();
});

describe('PostgreSQL restarts under the server', { skip: once }, () => {
  test('an idle server survives a restart and answers again', async () => {
    assert.deepEqual(await health(), { status: 200, body: { status: 'ok', database: 'ok', disk: 'ok' } });
    await cluster.restart();
    await sleep(1500);
    assert.ok(server.running, `the server exited:\n${server.output()}`);
    await waitFor('health to be ok again', async () => (await health()).status === 200, 30_000);
    const jobs = await owner.get(api('/ftpservers'));
    assert.equal(jobs.status, 200, JSON.stringify(jobs.body));
  });

  test('restarts under an upload stream: the server stays up and delivers every acknowledged upload', async () => {
    const account = await createProjectWithDestination('stream');
    let stop!: () => void;
    const until = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const cameras = [
      camera(server.ftpPort, account, 'A', until),
      camera(server.ftpPort, account, 'B', until),
    ];
    await sleep(3000);
    await cluster.restart();
    await sleep(3000);
    await cluster.restart();
    await sleep(3000);
    stop();
    const acknowledged = new Map([...(await cameras[0]!), ...(await cameras[1]!)]);
    assert.ok(server.running, `the server exited:\n${server.output()}`);
    assert.ok(acknowledged.size >= 10, `only ${acknowledged.size} uploads were acknowledged`);

    const missing = () =>
      [...acknowledged].filter(([name, sum]) => {
        const got = dest.read(`stream/${name}`);
        return !got || sha256(got) !== sum;
      });
    await waitFor(
      'every acknowledged upload to be delivered',
      async () => missing().length === 0,
      120_000,
    ).catch((err: Error) => {
      throw new Error(`${missing().length} of ${acknowledged.size} not delivered: ${err.message}`);
    });
    assert.ok(server.running, `the server exited:\n${server.output()}`);
  });

  test('with the database away health says so; a server started meanwhile waits for it', async () => {
    await cluster.stop();
    try {
      await waitFor('health to report the database', async () => (await health()).status === 503, 30_000);
      assert.deepEqual(await health(), {
        status: 503,
        body: { error: 'DatabaseUnavailable', message: 'database unavailable' },
      });
      assert.ok(server.running, `the server exited:\n${server.output()}`);

      await server.stop();
      // start() returns once HTTP answers: here the waiting server's health answer.
      await server.start();
      await sleep(4000);
      assert.ok(server.running, `the server gave up waiting:\n${server.output()}`);
      assert.equal((await health()).status, 503);
      assert.match(server.output(), /waiting for the database/);
    } finally {
      await cluster.start();
    }
    await waitFor('health to be ok', async () => (await health()).status === 200, 60_000);
    const account = await createProjectWithDestination('after');
    const picture = crypto.randomBytes(30_000);
    const client = new FtpClient(10_000);
    try {
      await client.access({
        host: '127.0.0.1',
        port: server.ftpPort,
        user: account.username,
        password: account.password,
      });
      await client.uploadFrom(Readable.from([picture]), path.posix.basename('LATE.JPG'));
    } finally {
      client.close();
    }
    await waitFor(
      'the upload after the wait to be delivered',
      async () => dest.read('after/LATE.JPG') !== null,
      60_000,
    );
  });
});
