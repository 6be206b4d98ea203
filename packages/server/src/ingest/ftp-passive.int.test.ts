import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import pino from 'pino';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { dataConnect, RawFtp } from '../../test/support/raw-ftp.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { TempDirBackend } from '../../test/support/temp-dir-backend.ts';
import { startFtpIngest } from './ftp-server.ts';
import { loadOrCreateTlsMaterial } from './tls.ts';

// Issue 10 item 5 against the real server: one team's sessions cannot take every passive port,
// nor cancel someone else's upload by connecting to its passive port first.

const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-pasv-'));
// A small random range: 12 ports, so "all ports taken" is quick to reach.
const pasvMin = 42000 + Math.floor(Math.random() * 300) * 20;
let server: TestServer;
const sessions: RawFtp[] = [];

before(async () => {
  server = await startTestServer({
    PASV_PORTS: `${pasvMin}-${pasvMin + 11}`,
    PASV_MAX_PER_ACCOUNT: '3',
    PASV_MAX_PER_ADDRESS: '5',
    PASV_MAX_PER_TEAM: '6',
    PASV_WAIT_MS: '1000',
    INGEST_MAX_CONNECTIONS_PER_ADDRESS: '20',
  });
});
after(async () => {
  for (const s of sessions) s.close();
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

const ftpPort = () => server.running.ingest?.ftpPort ?? 0;

async function account(team: Awaited<ReturnType<typeof makeTeam>>, name: string) {
  const { account, projectId } = await makeProjectWithServer(server, team, name);
  if (!account) throw new Error('project without FTP account');
  return { ...account, projectId };
}

async function session(user: { username: string; password: string }, from = '127.0.0.1') {
  const raw = new RawFtp(ftpPort(), from);
  sessions.push(raw);
  assert.match(await raw.login(user.username, user.password), /^230/);
  return raw;
}

/** curl as the camera: a passive upload from `from` (its own machine). */
async function curlUpload(user: { username: string; password: string }, name: string, from = '127.0.0.1') {
  const file = path.join(work, name);
  fs.writeFileSync(file, crypto.randomBytes(200_000));
  await run('curl', [
    '-sS',
    '--fail',
    '--max-time',
    '20',
    '--interface',
    from,
    '-T',
    file,
    '--user',
    `${user.username}:${user.password}`,
    `ftp://127.0.0.1:${ftpPort()}/DCIM/${name}`,
    '--ftp-create-dirs',
  ]);
}

async function uploaded(projectId: number, name: string) {
  const row = await server.running.ctx.db
    .selectFrom('uploads')
    .select('size')
    .where('project_id', '=', projectId)
    .where('path', '=', `DCIM/${name}`)
    .executeTakeFirst();
  return row ? Number(row.size) : undefined;
}

test('passive listeners are capped per account and per address; other accounts and addresses still upload', async () => {
  const attackerTeam = await makeTeam(server);
  const a = await account(attackerTeam, 'Flood A');
  const b = await account(attackerTeam, 'Flood B');
  const victim = await account(await makeTeam(server), 'Victim');

  const floodA = [];
  for (let i = 0; i < 5; i++) floodA.push(await (await session(a)).epsv());
  assert.equal(floodA.filter((r) => r.port).length, 3);
  assert.match(floodA[3]?.reply ?? '', /^425 Too many open data connections for this account/);

  // Another account of the same address: 2 more, then the address is at its cap.
  const floodB = [];
  for (let i = 0; i < 3; i++) floodB.push(await (await session(b)).epsv());
  assert.equal(floodB.filter((r) => r.port).length, 2);
  assert.match(floodB[2]?.reply ?? '', /^425 Too many open data connections from your address/);

  // A camera elsewhere never notices.
  await curlUpload(victim, 'IMG_0001.JPG', '127.0.0.2');
  assert.equal(await uploaded(victim.projectId, 'IMG_0001.JPG'), 200_000);

  // A closed session frees its listener at once.
  for (const s of sessions.splice(0)) s.close();
  await waitFor(async () => {
    const again = await session(a);
    const r = await again.epsv();
    again.close();
    return r.port !== undefined;
  });
  await curlUpload(victim, 'IMG_0002.JPG');
  assert.equal(await uploaded(victim.projectId, 'IMG_0002.JPG'), 200_000);
});

// Issue 25 item 5: with 7 addresses and 14 accounts one team held all 101 ports; others got 425.
test('one team, with many accounts and addresses, holds no more than its share of the passive ports', async () => {
  const attackerTeam = await makeTeam(server);
  const accounts = await Promise.all([1, 2, 3, 4].map((i) => account(attackerTeam, `Share ${i}`)));
  const victim = await account(await makeTeam(server), 'Share victim');
  // 4 accounts x 3 from 4 addresses: within every per-account and per-address cap, 12 = the whole range.
  try {
    const tries = await Promise.all(
      accounts.flatMap((a, i) => [0, 1, 2].map(async () => (await session(a, `127.0.0.${i + 2}`)).epsv())),
    );
    const held = tries.filter((r) => r.port).length;
    assert.equal(held, 6, `the team holds ${held} of 12 passive ports`);
    for (const r of tries.filter((t) => !t.port))
      assert.match(r.reply, /^425 Too many open data connections for your team/);
    // Another team still gets a port and uploads.
    assert.ok((await (await session(victim, '127.0.0.6')).epsv()).port, 'the other team gets a port');
    await curlUpload(victim, 'IMG_0101.JPG', '127.0.0.7');
    assert.equal(await uploaded(victim.projectId, 'IMG_0101.JPG'), 200_000);
  } finally {
    for (const s of sessions.splice(0)) s.close();
  }
});

// Issue 29 item 3: a PASV at a cap waits briefly for a listener to close instead of a 425 at once.
test('a PASV at the account cap waits for a free listener instead of an immediate 425', async () => {
  const crew = await account(await makeTeam(server), 'Crew');
  try {
    const first = [await session(crew), await session(crew), await session(crew)];
    for (const raw of first) assert.ok((await raw.epsv()).port);
    const fourth = await session(crew);
    const waiting = fourth.epsv();
    await new Promise((resolve) => setTimeout(resolve, 300));
    first[0]?.close();
    const r = await waiting;
    assert.ok(r.port, `the fourth camera got ${r.reply}`);
  } finally {
    for (const s of sessions.splice(0)) s.close();
  }
});

test("connecting to someone else's passive port first does not abort their upload", async () => {
  const victim = await account(await makeTeam(server), 'Hijack victim');
  const raw = await session(victim);
  assert.match(await raw.cmd('TYPE I'), /^200/);
  const { port } = await raw.epsv();
  assert.ok(port);
  // The attacker is faster: its connection is closed without a word to anyone.
  const intruder = await dataConnect(port, '127.0.0.2');
  const intruderClosed = await new Promise<boolean>((resolve) => {
    intruder.once('close', () => resolve(true));
    setTimeout(() => resolve(false), 3000);
  });
  assert.ok(intruderClosed, 'the intruder is disconnected');
  const data = await dataConnect(port);
  raw.socket.write('STOR hijack.jpg\r\n');
  assert.match(await raw.reply(), /^150/);
  data.end(crypto.randomBytes(50_000));
  assert.match(await raw.reply(), /^226/);
  assert.equal(raw.closed, false);
  const row = await server.running.ctx.db
    .selectFrom('uploads')
    .select('size')
    .where('project_id', '=', victim.projectId)
    .where('path', '=', 'hijack.jpg')
    .executeTakeFirst();
  assert.equal(Number(row?.size), 50_000);
  raw.close();
});

test('connections per address are capped; other addresses still connect', async () => {
  const held: RawFtp[] = [];
  try {
    for (let i = 0; i < 20; i++) {
      const raw = new RawFtp(ftpPort(), '127.0.0.7');
      held.push(raw);
      assert.match(await raw.reply(), /^220/);
    }
    const refused = new RawFtp(ftpPort(), '127.0.0.7');
    held.push(refused);
    assert.match(await refused.reply(), /^421 Too many connections from your address/);
    const other = new RawFtp(ftpPort(), '127.0.0.8');
    held.push(other);
    assert.match(await other.reply(), /^220/);
  } finally {
    for (const raw of held) raw.close();
  }
});

test('a passive listener nobody connects to is freed after its timeout', async () => {
  const backend = new TempDirBackend();
  backend.addAccount('cam', 'secret', 1);
  const ftp = await startFtpIngest({
    port: 0,
    host: '127.0.0.1',
    pasvRange: [pasvMin + 12, pasvMin + 19],
    tls: await loadOrCreateTlsMaterial({ dataDir: work }),
    maxUploadBytes: 1_000_000,
    backend,
    log: pino({ level: 'silent' }),
    passiveLimits: { perAccount: 1, listenTimeoutMs: 300, waitMs: 0 },
  });
  const first = new RawFtp(ftp.port);
  const second = new RawFtp(ftp.port);
  try {
    assert.match(await first.login('cam', 'secret'), /^230/);
    assert.match(await second.login('cam', 'secret'), /^230/);
    assert.ok((await first.epsv()).port);
    assert.match((await second.epsv()).reply, /^425 Too many open data connections for this account/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok((await second.epsv()).port, 'the idle listener of the first session was closed');
  } finally {
    first.close();
    second.close();
    await ftp.close();
    backend.cleanup();
  }
});

// Issue 29 item 3: sixteen cameras on one project account, each slow to open its data
// connection, with the default caps (8 per account refused 0.4-3.3 % of uploads).
test('sixteen cameras on one account are never refused a passive port', async () => {
  const crewMin = pasvMin + 40;
  const crewServer = await startTestServer({ PASV_PORTS: `${crewMin}-${crewMin + 39}` });
  try {
    const { account: crew } = await makeProjectWithServer(crewServer, await makeTeam(crewServer), 'Event');
    if (!crew) throw new Error('project without FTP account');
    const port = crewServer.running.ingest?.ftpPort ?? 0;
    const refusals: string[] = [];
    let stored = 0;
    await Promise.all(
      Array.from({ length: 16 }, async (_, camera) => {
        const raw = new RawFtp(port);
        try {
          assert.match(await raw.login(crew.username, crew.password), /^230/);
          assert.match(await raw.cmd('TYPE I'), /^200/);
          for (let file = 0; file < 5; file++) {
            const { port: dataPort, reply } = await raw.epsv();
            if (!dataPort) {
              refusals.push(reply);
              continue;
            }
            // A camera takes its time between the 229 and its data connection.
            await new Promise((resolve) => setTimeout(resolve, 150));
            const data = await dataConnect(dataPort);
            raw.socket.write(`STOR cam${camera}-${file}.jpg\r\n`);
            assert.match(await raw.reply(), /^150/);
            data.end(crypto.randomBytes(20_000));
            assert.match(await raw.reply(), /^226/);
            stored++;
          }
        } finally {
          raw.close();
        }
      }),
    );
    assert.deepEqual(refusals, [], `${refusals.length} of 80 PASVs refused`);
    assert.equal(stored, 80);
  } finally {
    await crewServer.stop();
  }
});

async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
