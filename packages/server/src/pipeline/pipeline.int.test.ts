import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Client as FtpClient } from 'basic-ftp';
import pino from 'pino';
import SftpClient from 'ssh2-sftp-client';
import { ftpUpload } from '../../test/support/camera.ts';
import type { TestClient } from '../../test/support/client.ts';
import { makeMember, makeTeam, rootFolder } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { type FtpIngest, startFtpIngest } from '../ingest/ftp-server.ts';
import { type SftpIngest, startSftpIngest } from '../ingest/sftp-server.ts';
import { TempDirBackend } from '../ingest/temp-dir-backend.test-support.ts';
import { loadOrCreateTlsMaterial } from '../ingest/tls.ts';

// The whole pipeline with real clients and servers: camera-style uploads into the product's
// ingest, delivered to FTP, FTPS and SFTP servers started here and to other projects.

const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-pipeline-'));
const agency = new TempDirBackend();
let destFtp: FtpIngest;
let destSftp: SftpIngest;
let server: TestServer;
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const pasv = 45000 + Math.floor(Math.random() * 100) * 50;

before(async () => {
  agency.addAccount('agency', 'agency-pw', 3);
  const log = pino({ level: 'silent' });
  destFtp = await startFtpIngest({
    port: 0,
    host: '127.0.0.1',
    pasvRange: [pasv, pasv + 49],
    tls: await loadOrCreateTlsMaterial({ dataDir: work }),
    maxUploadBytes: 100_000_000,
    backend: agency,
    log,
  });
  destSftp = await startSftpIngest({
    port: 0,
    host: '127.0.0.1',
    hostKeyDir: path.join(work, 'ssh'),
    maxUploadBytes: 100_000_000,
    backend: agency,
    log,
  });
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' });
});

after(async () => {
  await server.stop();
  await destFtp.close();
  await destSftp.close();
  agency.cleanup();
});

type Job = {
  id: number;
  filename: string;
  state: string;
  trynumber: number;
  errortext: string | null;
  ftpservername: string | null;
  destprojectname: string | null;
  canRetry: boolean;
};

async function setupProject(client: TestClient, teamUuid: string, parentFolderId: number, name: string) {
  const created = await client.post<{ projectId: number }>(`/api/${teamUuid}/project`, {
    name,
    parentFolderId,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const project = await client.get<{
    project: {
      ftpAccounts: Array<{ username: string; password: string }>;
      ingest: { ftpPort: number; sftpPort: number };
    };
  }>(`/api/${teamUuid}/project/${created.body.projectId}`);
  return {
    id: created.body.projectId,
    account: project.body.project.ftpAccounts[0],
    ingest: project.body.project.ingest,
  };
}

async function addServer(
  client: TestClient,
  teamUuid: string,
  parentFolderId: number,
  protocol: 'ftp' | 'ftps' | 'sftp',
  pathOnServer: string,
) {
  const res = await client.post<{ ftpserverid: number }>(`/api/${teamUuid}/ftpserver`, {
    name: `Agency ${protocol}`,
    host: '127.0.0.1',
    port: protocol === 'sftp' ? destSftp.port : destFtp.port,
    path: pathOnServer,
    protocol,
    username: 'agency',
    password: 'agency-pw',
    parentFolderId,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.ftpserverid;
}

async function jobsOf(client: TestClient, teamUuid: string, projectId: number) {
  const res = await client.post<{ jobs: Job[]; count: number }>(`/api/${teamUuid}/jobs/100/0`, {
    projectid: projectId,
  });
  assert.equal(res.status, 200);
  return res.body;
}

async function waitForJobs(
  client: TestClient,
  teamUuid: string,
  projectId: number,
  done: (jobs: Job[]) => boolean,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { jobs } = await jobsOf(client, teamUuid, projectId);
    if (done(jobs)) return jobs;
    if (Date.now() > deadline) throw new Error(`jobs did not settle: ${JSON.stringify(jobs)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('ingest to destinations', () => {
  test('FTP, FTPS, SFTP and curl uploads reach FTP, FTPS and SFTP destinations byte for byte', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const projects = await rootFolder(server, team, 'projects');
    const servers = await rootFolder(server, team, 'ftpservers');
    const project = await setupProject(c, team.teamUuid, projects.id, 'Stadium');
    for (const [protocol, dir] of [
      ['ftp', 'in/ftp'],
      ['ftps', 'in/ftps'],
      ['sftp', 'in/sftp'],
    ] as const) {
      const id = await addServer(c, team.teamUuid, servers.id, protocol, `${dir}-${team.teamId}`);
      assert.equal((await c.post(`/api/${team.teamUuid}/project/${project.id}/ftpserver/${id}`)).status, 200);
    }

    const files: Array<[string, Buffer]> = [
      ['DCIM/100CANON/IMG_0001.JPG', crypto.randomBytes(700_000)],
      ['DCIM/100CANON/IMG_0002.JPG', crypto.randomBytes(300_000)],
      ['NIKON_0003.JPG', crypto.randomBytes(200_000)],
      ['curl/SONY_0004.JPG', crypto.randomBytes(150_000)],
    ];
    await ftpUpload(project.ingest.ftpPort, project.account, files[0][0], files[0][1]);
    await ftpUpload(project.ingest.ftpPort, project.account, files[1][0], files[1][1], true);
    const sftp = new SftpClient();
    await sftp.connect({
      host: '127.0.0.1',
      port: project.ingest.sftpPort,
      username: project.account.username,
      password: project.account.password,
    });
    await sftp.put(files[2][1], `/${files[2][0]}`);
    await sftp.end();
    const local = path.join(work, `curl-${team.teamId}.jpg`);
    fs.writeFileSync(local, files[3][1]);
    await run('curl', [
      '-sS',
      '--ftp-create-dirs',
      '-T',
      local,
      `ftp://${project.account.username}:${project.account.password}@127.0.0.1:${project.ingest.ftpPort}/curl/SONY_0004.JPG`,
    ]);

    const jobs = await waitForJobs(
      c,
      team.teamUuid,
      project.id,
      (j) => j.length === 12 && j.every((x) => x.state === 'succeeded'),
    );
    assert.equal(jobs.length, 12);
    for (const [protocol, dir] of [
      ['ftp', 'in/ftp'],
      ['ftps', 'in/ftps'],
      ['sftp', 'in/sftp'],
    ]) {
      for (const [name, bytes] of files) {
        const delivered = fs.readFileSync(agency.fileOf(3, `${dir}-${team.teamId}/${name}`));
        assert.equal(sha(delivered), sha(bytes), `${protocol} ${name}`);
      }
    }
    const info = await c.get<{
      project: { fileincount: number; fileoutcount: number; bytesreceived: number; bytessent: number };
    }>(`/api/${team.teamUuid}/project/${project.id}`);
    const total = files.reduce((n, [, b]) => n + b.length, 0);
    assert.deepEqual(
      [
        info.body.project.fileincount,
        info.body.project.fileoutcount,
        info.body.project.bytesreceived,
        info.body.project.bytessent,
      ],
      [4, 12, total, total * 3],
    );
    const summary = await c.post<{
      summary: Array<{ project: string; ftpserver: string; jobcount: number; failedjobcount: number }>;
    }>(`/api/${team.teamUuid}/jobs/summary`);
    assert.deepEqual(
      summary.body.summary.map((s) => [s.project, s.ftpserver, s.jobcount, s.failedjobcount]),
      [
        ['Stadium', 'Agency ftp', 4, 0],
        ['Stadium', 'Agency ftps', 4, 0],
        ['Stadium', 'Agency sftp', 4, 0],
      ],
    );
    const stats = await c.get<{ hours: Array<{ filesIn: number; filesOut: number }> }>(
      `/api/${team.teamUuid}/project/${project.id}/stats`,
    );
    assert.equal(
      stats.body.hours.reduce((n, h) => n + h.filesIn, 0),
      4,
    );
    assert.equal(
      stats.body.hours.reduce((n, h) => n + h.filesOut, 0),
      12,
    );
    const log = await c.get<{
      sessions: Array<{ protocol: string; loginResult: string; entries: Array<{ text: string }> }>;
    }>(`/api/${team.teamUuid}/project/${project.id}/connectionlog`);
    assert.ok(log.body.sessions.some((s) => s.protocol === 'sftp' && s.loginResult === 'ok'));
    assert.ok(log.body.sessions.some((s) => s.protocol === 'ftps'));
    assert.ok(log.body.sessions.some((s) => s.entries.some((e) => e.text.startsWith('STOR'))));
    assert.ok(
      log.body.sessions.every((s) => s.entries.every((e) => !e.text.includes(project.account.password))),
    );
  });

  test('a re-sent file is not delivered twice; a switched-off destination gets no jobs', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const projects = await rootFolder(server, team, 'projects');
    const servers = await rootFolder(server, team, 'ftpservers');
    const project = await setupProject(c, team.teamUuid, projects.id, 'Resend');
    const a = await addServer(c, team.teamUuid, servers.id, 'ftp', `dup-a-${team.teamId}`);
    const b = await addServer(c, team.teamUuid, servers.id, 'sftp', `dup-b-${team.teamId}`);
    await c.post(`/api/${team.teamUuid}/project/${project.id}/ftpserver/${a}`);
    await c.post(`/api/${team.teamUuid}/project/${project.id}/ftpserver/${b}`);
    assert.equal(
      (await c.put(`/api/${team.teamUuid}/project/${project.id}/ftpserver/${b}`, { enabled: false })).status,
      200,
    );
    const bytes = crypto.randomBytes(100_000);
    await ftpUpload(project.ingest.ftpPort, project.account, 'IMG_9.JPG', bytes);
    await waitForJobs(c, team.teamUuid, project.id, (j) => j.length === 1 && j[0].state === 'succeeded');
    await ftpUpload(project.ingest.ftpPort, project.account, 'IMG_9.JPG', bytes);
    const jobs = await waitForJobs(c, team.teamUuid, project.id, (j) => j.length === 2);
    assert.deepEqual(
      jobs.map((j) => j.state),
      ['duplicate', 'succeeded'],
    );
    assert.equal(fs.existsSync(agency.fileOf(3, `dup-b-${team.teamId}/IMG_9.JPG`)), false);
  });

  test('a camera still logged in when its project is deleted gets an error, and nothing is kept', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const projects = await rootFolder(server, team, 'projects');
    const project = await setupProject(c, team.teamUuid, projects.id, 'Deleted meanwhile');
    const blobs = path.join(server.running.ctx.config.DATA_DIR, 'files');
    const files = () =>
      (fs.readdirSync(blobs, { recursive: true }) as string[]).filter((f) => /[0-9a-f-]{36}$/.test(f));
    const before = files().length;
    const camera = new FtpClient(10_000);
    try {
      await camera.access({
        host: '127.0.0.1',
        port: project.ingest.ftpPort,
        user: project.account.username,
        password: project.account.password,
      });
      assert.equal((await c.del(`/api/${team.teamUuid}/project/${project.id}`)).status, 200);
      await assert.rejects(
        camera.uploadFrom(Readable.from([crypto.randomBytes(50_000)]), 'LATE.JPG'),
        /^Error: 4|^FTPError: 4|^\S*Error: 5/,
      );
    } finally {
      camera.close();
    }
    assert.equal(files().length, before, 'the stored file was removed again');
  });
});

describe('project to project', () => {
  test('the processed file enters the destination project as its own upload; loops end', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const projects = await rootFolder(server, team, 'projects');
    const servers = await rootFolder(server, team, 'ftpservers');
    const source = await setupProject(c, team.teamUuid, projects.id, 'Source');
    const target = await setupProject(c, team.teamUuid, projects.id, 'Target');
    const serverId = await addServer(c, team.teamUuid, servers.id, 'ftp', `p2p-${team.teamId}`);
    await c.post(`/api/${team.teamUuid}/project/${source.id}/destinationproject/${target.id}`);
    await c.post(`/api/${team.teamUuid}/project/${target.id}/destinationproject/${source.id}`);
    await c.post(`/api/${team.teamUuid}/project/${target.id}/ftpserver/${serverId}`);
    assert.equal(
      (await c.post(`/api/${team.teamUuid}/project/${source.id}/destinationproject/${source.id}`)).status,
      400,
    );

    const bytes = crypto.randomBytes(120_000);
    await ftpUpload(source.ingest.ftpPort, source.account, 'match/IMG_1.JPG', bytes);
    const sourceJobs = await waitForJobs(
      c,
      team.teamUuid,
      source.id,
      (j) => j.length === 1 && j[0].state === 'succeeded',
    );
    assert.equal(sourceJobs[0].destprojectname, 'Target');
    const targetJobs = await waitForJobs(
      c,
      team.teamUuid,
      target.id,
      (j) => j.length === 1 && j[0].state === 'succeeded',
    );
    assert.equal(targetJobs[0].ftpservername, 'Agency ftp', 'no job back to Source: the chain ends');
    assert.equal(sha(fs.readFileSync(agency.fileOf(3, `p2p-${team.teamId}/match/IMG_1.JPG`))), sha(bytes));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await jobsOf(c, team.teamUuid, source.id)).count, 1);
    // The dashboard tells a destination project from an FTP server (issue 16 bugs).
    const summary = await c.post<{
      summary: Array<{ project: string; ftpserver: string; destination: string }>;
    }>(`/api/${team.teamUuid}/jobs/summary`);
    assert.deepEqual(
      summary.body.summary.map((s) => [s.project, s.ftpserver, s.destination]),
      [
        ['Source', 'Target', 'project'],
        ['Target', 'Agency ftp', 'ftpserver'],
      ],
    );
  });
});

describe('failures', () => {
  test('an unreachable destination fails a try with its error, keeps retrying and can be retried now', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const projects = await rootFolder(server, team, 'projects');
    const servers = await rootFolder(server, team, 'ftpservers');
    const project = await setupProject(c, team.teamUuid, projects.id, 'Down');
    const res = await c.post<{ ftpserverid: number }>(`/api/${team.teamUuid}/ftpserver`, {
      name: 'Closed',
      host: '127.0.0.1',
      port: 9,
      protocol: 'ftp',
      username: 'x',
      password: 'y',
      parentFolderId: servers.id,
    });
    await c.post(`/api/${team.teamUuid}/project/${project.id}/ftpserver/${res.body.ftpserverid}`);
    await ftpUpload(project.ingest.ftpPort, project.account, 'IMG_1.JPG', crypto.randomBytes(1000));
    const [job] = await waitForJobs(
      c,
      team.teamUuid,
      project.id,
      (j) => j.length === 1 && j[0].trynumber >= 1,
    );
    assert.equal(job.state, 'scheduled');
    assert.match(job.errortext ?? '', /ECONNREFUSED/);
    assert.equal(job.canRetry, true);
    const photographer = await makeMember(server, team, 'Photographer');
    assert.equal((await photographer.client.post(`/api/${team.teamUuid}/job/${job.id}/retry`)).status, 404);
    assert.equal((await c.post(`/api/${team.teamUuid}/job/${job.id}/retry`)).status, 200);
    await waitForJobs(c, team.teamUuid, project.id, (j) => j[0].trynumber >= 2);
  });

  test('ingest refuses wrong passwords, hostile paths stay inside, and other teams see nothing', async () => {
    const team = await makeTeam(server);
    const other = await makeTeam(server);
    const c = team.owner.client;
    const projects = await rootFolder(server, team, 'projects');
    const project = await setupProject(c, team.teamUuid, projects.id, 'Guarded');
    const client = new FtpClient(5000);
    await assert.rejects(
      client.access({
        host: '127.0.0.1',
        port: project.ingest.ftpPort,
        user: project.account.username,
        password: 'wrong',
      }),
      /530/,
    );
    client.close();
    const good = new FtpClient(5000);
    await good.access({
      host: '127.0.0.1',
      port: project.ingest.ftpPort,
      user: project.account.username,
      password: project.account.password,
    });
    await good.uploadFrom(Readable.from([Buffer.from('x'.repeat(100))]), '../../escape.jpg').catch(() => {});
    const uploads = await server.running.ctx.db
      .selectFrom('uploads')
      .select('path')
      .where('project_id', '=', project.id)
      .execute();
    assert.ok(
      uploads.every((u) => !u.path.includes('..') && !u.path.startsWith('/')),
      JSON.stringify(uploads),
    );
    good.close();

    const base = `/api/${other.teamUuid}`;
    assert.equal((await other.owner.client.get(`${base}/project/${project.id}`)).status, 404);
    assert.equal((await other.owner.client.post(`${base}/jobs/10/0`, { projectid: project.id })).status, 404);
    assert.equal((await other.owner.client.get(`${base}/project/${project.id}/connectionlog`)).status, 404);
    assert.equal((await other.owner.client.del(`${base}/project/${project.id}`)).status, 404);
    assert.equal((await c.get(`/api/${team.teamUuid}/project/${project.id}`)).status, 200);
  });
});
