import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ListPicturesResponse, PictureFilter } from '@photorelay/contract/jobs';
import { ftpUpload } from '../../../test/support/camera.ts';
import {
  destinationUser,
  startFtpDestination,
  type TempDirDestination,
} from '../../../test/support/destinations.ts';
import { makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { readImage } from '../../../test/support/metadata.ts';
import { setupProject, storeScript, type Team } from '../../../test/support/scripts.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Issue 28: the job log one picture a row (filters, search, paging), the plain cause once per
// picture or per destination, "Retry all failed" and "Send again" with today's script.

let server: TestServer;
let destination: TempDirDestination;
before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1' });
  destination = await startFtpDestination();
});
after(async () => {
  await server.stop();
  await destination.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function addServer(team: Team, projectId: number, name: string, folder: string, password: string) {
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const added = await c.post<{ ftpserverid: number }>(`${base}/ftpserver`, {
    name,
    host: '127.0.0.1',
    port: destination.port,
    protocol: 'ftp',
    username: destinationUser.username,
    password,
    path: folder,
    parentFolderId: (await rootFolder(server, team, 'ftpservers')).id,
  });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  const linked = await c.post(`${base}/project/${projectId}/ftpserver/${added.body.ftpserverid}`);
  assert.equal(linked.status, 200, JSON.stringify(linked.body));
  return added.body.ftpserverid;
}

async function pictures(team: Team, filter: PictureFilter, pageSize = 50, pageIndex = 0) {
  const res = await team.owner.client.post<ListPicturesResponse>(
    `/api/${team.teamUuid}/pictures/${pageSize}/${pageIndex}`,
    filter,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: ${JSON.stringify(value).slice(0, 2000)}`);
    server.running.ctx.wake.pipeline();
    await sleep(100);
  }
}

const captionOf = (file: string) => {
  const tmp = path.join(os.tmpdir(), `pr-caption-${process.pid}-${Date.now()}.jpg`);
  fs.writeFileSync(tmp, destination.read(file) ?? Buffer.alloc(0));
  try {
    const [tags] = JSON.parse(
      execFileSync('exiftool', ['-j', '-XMP-dc:Description', tmp], { encoding: 'utf8' }),
    ) as Array<{
      Description?: string;
    }>;
    return tags?.Description;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
};

/**
 * A match day in small: 4 pictures to three FTP servers (Agency and Archive work, Client FTP
 * refuses the login), a script that fails on one picture (BAD in its name).
 */
async function matchDay() {
  const team = await makeTeam(server);
  const tag = Math.random().toString(36).slice(2, 8);
  const project = await setupProject(server, team, `Match ${tag}`);
  await addServer(team, project.id, 'Agency FTP', `agency-${tag}`, destinationUser.password);
  await addServer(team, project.id, 'Archive FTP', `archive-${tag}`, destinationUser.password);
  const clientId = await addServer(team, project.id, 'Client FTP', `client-${tag}`, 'wrong-password');
  const stored = await storeScript(
    team.owner.client,
    team,
    { dbprojectid: project.id },
    "meta.set('caption', 'first caption');\nif (file.name.includes('BAD')) null.boom;",
    'caption.script',
  );
  assert.equal(stored.state, 'ok', JSON.stringify(stored.detail));
  const image = readImage('exiftool-IPTC.jpg');
  for (const name of ['GOAL_1.jpg', 'GOAL_2.jpg', 'BAD_3.jpg', 'FANS_4.jpg'])
    await ftpUpload(project.ftpPort, project.account, name, image);
  // Agency and Archive delivered, Client FTP tried once and waits for its retry.
  await until(
    'the day settled',
    () => pictures(team, { projectid: project.id }),
    (p) =>
      p.pictures.length === 4 &&
      p.pictures.every((pic) =>
        pic.deliveries.every(
          (d) =>
            d.state === 'succeeded' || d.state === 'failed' || (d.state === 'scheduled' && d.trynumber > 0),
        ),
      ),
  );
  return { team, project, tag, clientId };
}

describe('the job log', () => {
  test('one row per picture; a script error said once on the picture, a refused login once per destination', async () => {
    const { team, project } = await matchDay();
    const log = await pictures(team, { projectid: project.id });
    assert.equal(log.count, 4);
    assert.deepEqual(
      log.pictures.map((p) => p.filename),
      ['FANS_4.jpg', 'BAD_3.jpg', 'GOAL_2.jpg', 'GOAL_1.jpg'],
    );
    const bad = log.pictures.find((p) => p.filename === 'BAD_3.jpg');
    assert.equal(bad?.cause?.code, 'script');
    assert.equal(bad?.cause?.values.script, 'caption.script');
    assert.equal(bad?.cause?.values.line, '2');
    assert.equal(bad?.deliveries.length, 3);
    assert.ok(
      bad?.deliveries.every((d) => d.state === 'failed' && d.cause === null),
      'the script error is not repeated under each destination',
    );
    const goal = log.pictures.find((p) => p.filename === 'GOAL_1.jpg');
    assert.equal(goal?.cause, null);
    const client = goal?.deliveries.find((d) => d.name === 'Client FTP');
    assert.equal(client?.cause?.code, 'loginRefused');
    assert.equal(client?.cause?.values.reply, '530');
    // The banner: Client FTP once, with the 3 pictures waiting for it; the script-stopped picture
    // does not blame Agency or Archive.
    assert.equal(log.problems.length, 1, JSON.stringify(log.problems));
    assert.equal(log.problems[0]?.name, 'Client FTP');
    assert.equal(log.problems[0]?.waiting, 3);
    assert.equal(log.problems[0]?.cause.code, 'loginRefused');
    assert.deepEqual(
      log.destinations.map((d) => d.name),
      ['Agency FTP', 'Archive FTP', 'Client FTP'],
    );

    // The dashboard no longer calls Agency and Archive failing for the script error.
    const summary = await team.owner.client.post<{
      summary: Array<{ ftpserver: string; failing?: boolean; lasterror?: string | null }>;
    }>(`/api/${team.teamUuid}/jobs/summary`, {});
    const failing = summary.body.summary.filter((r) => r.failing).map((r) => r.ftpserver);
    assert.deepEqual(failing, ['Client FTP']);
    assert.equal(summary.body.summary.find((r) => r.ftpserver === 'Agency FTP')?.lasterror, null);
  });

  test('filters by state, destination, date and file name; pages on the server', async () => {
    const { team, project } = await matchDay();
    const failed = await pictures(team, { projectid: project.id, state: 'failed' });
    assert.deepEqual(
      failed.pictures.map((p) => p.filename),
      ['BAD_3.jpg'],
    );
    const retrying = await pictures(team, { projectid: project.id, state: 'retrying' });
    assert.equal(retrying.count, 3);
    const toClient = await pictures(team, {
      projectid: project.id,
      state: 'retrying',
      destination: 'Client FTP',
    });
    assert.equal(toClient.count, 3);
    const toAgency = await pictures(team, {
      projectid: project.id,
      state: 'retrying',
      destination: 'Agency FTP',
    });
    assert.equal(toAgency.count, 0);
    const delivered = await pictures(team, {
      projectid: project.id,
      state: 'delivered',
      destination: 'Agency FTP',
    });
    assert.equal(delivered.count, 3);
    const search = await pictures(team, { projectid: project.id, search: 'goal' });
    assert.deepEqual(
      search.pictures.map((p) => p.filename),
      ['GOAL_2.jpg', 'GOAL_1.jpg'],
    );
    // LIKE's wildcards are plain characters in a search.
    assert.equal((await pictures(team, { projectid: project.id, search: '%' })).count, 0);
    assert.equal((await pictures(team, { projectid: project.id, search: 'GOAL_' })).count, 2);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    assert.equal((await pictures(team, { projectid: project.id, from: tomorrow })).count, 0);
    assert.equal((await pictures(team, { projectid: project.id, to: tomorrow })).count, 4);
    const page2 = await pictures(team, { projectid: project.id }, 3, 1);
    assert.equal(page2.count, 4);
    assert.deepEqual(
      page2.pictures.map((p) => p.filename),
      ['GOAL_1.jpg'],
    );
    // Without a project: every project the member may read.
    assert.equal((await pictures(team, {})).count, 4);
    // Bad input is refused; another team's project is not found.
    const bad = await team.owner.client.post(`/api/${team.teamUuid}/pictures/50/0`, {
      projectid: project.id,
      state: 'exploded',
    });
    assert.equal(bad.status, 400);
    const other = await makeTeam(server);
    const foreign = await other.owner.client.post(`/api/${other.teamUuid}/pictures/50/0`, {
      projectid: project.id,
    });
    assert.equal(foreign.status, 404);
  });

  test('retry all failed of a destination delivers once the login is fixed; a reader may not', async () => {
    const { team, project, tag, clientId } = await matchDay();
    const db = server.running.ctx.db;
    // Client FTP gave up (as after its tenth try); its password is fixed afterwards.
    await db
      .updateTable('jobs')
      .set({ state: 'failed', finished_at: new Date() })
      .where('project_id', '=', project.id)
      .where('ftpservername', '=', 'Client FTP')
      .where('state', '=', 'scheduled')
      .execute();
    const base = `/api/${team.teamUuid}`;
    const fixed = await team.owner.client.put(`${base}/ftpserver/${clientId}`, {
      name: 'Client FTP',
      host: '127.0.0.1',
      port: destination.port,
      protocol: 'ftp',
      username: destinationUser.username,
      password: destinationUser.password,
      path: `client-${tag}`,
    });
    assert.equal(fixed.status, 200, JSON.stringify(fixed.body));

    const photographer = await makeMember(server, team, 'Photographer');
    const refused = await photographer.client.post(`${base}/jobs/retryfailed`, { projectid: project.id });
    assert.ok([403, 404].includes(refused.status), String(refused.status));
    assert.equal((await pictures(team, { projectid: project.id, state: 'failed' })).count, 4);

    const res = await team.owner.client.post<{ retried: number }>(`${base}/jobs/retryfailed`, {
      projectid: project.id,
      destination: 'Client FTP',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.retried, 4, 'three refused logins and the script-stopped picture');
    await until(
      'Client FTP delivered',
      () => pictures(team, { projectid: project.id, destination: 'Client FTP', state: 'delivered' }),
      (p) => p.count === 3,
    );
    for (const name of ['GOAL_1.jpg', 'GOAL_2.jpg', 'FANS_4.jpg'])
      assert.equal(captionOf(`client-${tag}/${name}`), 'first caption');
    const after = await pictures(team, { projectid: project.id });
    assert.deepEqual(after.problems, []);
  });

  test('send again processes the picture with today’s script, to chosen destinations and one added later', async () => {
    const { team, project, tag } = await matchDay();
    const base = `/api/${team.teamUuid}`;
    const goal = (await pictures(team, { projectid: project.id, search: 'GOAL_1' })).pictures[0];
    assert.ok(goal);
    assert.equal(captionOf(`agency-${tag}/GOAL_1.jpg`), 'first caption');
    const busy = await team.owner.client.post(`${base}/upload/${goal.uploadId}/sendagain`, {});
    assert.equal(busy.status, 409, 'Client FTP still waits for its retry');

    const stored = await storeScript(
      team.owner.client,
      team,
      { dbprojectid: project.id },
      "meta.set('caption', 'corrected caption');",
      'caption.script',
    );
    assert.equal(stored.state, 'ok');
    await addServer(team, project.id, 'Late FTP', `late-${tag}`, destinationUser.password);
    const fans = (await pictures(team, { projectid: project.id, search: 'FANS' })).pictures[0];
    assert.ok(fans);
    // Client FTP's waiting job ends so the picture is settled (as after giving up).
    await server.running.ctx.db
      .updateTable('jobs')
      .set({ state: 'failed', finished_at: new Date() })
      .where('upload_id', '=', fans.uploadId)
      .where('state', '=', 'scheduled')
      .execute();
    const unknown = await team.owner.client.post(`${base}/upload/${fans.uploadId}/sendagain`, {
      destinations: ['Nowhere'],
    });
    assert.equal(unknown.status, 400);
    const res = await team.owner.client.post<{ jobs: number }>(`${base}/upload/${fans.uploadId}/sendagain`, {
      destinations: ['Agency FTP', 'Late FTP'],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.jobs, 2);
    await until(
      'sent again',
      () => pictures(team, { projectid: project.id, search: 'FANS' }),
      (p) =>
        ['Agency FTP', 'Late FTP'].every(
          (n) => p.pictures[0]?.deliveries.find((d) => d.name === n)?.state === 'succeeded',
        ),
    );
    assert.equal(captionOf(`agency-${tag}/FANS_4.jpg`), 'corrected caption');
    assert.equal(captionOf(`late-${tag}/FANS_4.jpg`), 'corrected caption');
    // Archive was not chosen: its file keeps the caption it was sent with.
    assert.equal(captionOf(`archive-${tag}/FANS_4.jpg`), 'first caption');
    const row = (await pictures(team, { projectid: project.id, search: 'FANS' })).pictures[0];
    assert.equal(row?.deliveries.length, 4);
    // Another team cannot send it again.
    const other = await makeTeam(server);
    const foreign = await other.owner.client.post(
      `/api/${other.teamUuid}/upload/${fans.uploadId}/sendagain`,
      {},
    );
    assert.equal(foreign.status, 404);
  });

  test('the FTP servers show their health: last delivery, pictures waiting, last error, projects', async () => {
    const { team, tag } = await matchDay();
    const res = await team.owner.client.get<{
      health: Array<{
        ftpserverid: number;
        lastResult: string | null;
        lastDeliveryAt: string | null;
        waiting: number;
        retrying: number;
        lastError: string | null;
        failing: boolean;
        projects: string[];
      }>;
    }>(`/api/${team.teamUuid}/ftpservers/health`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const servers = await team.owner.client.get<{ ftpservers: Array<{ id: number; name: string }> }>(
      `/api/${team.teamUuid}/ftpservers`,
    );
    const byName = (name: string) => {
      const id = servers.body.ftpservers.find((s) => s.name === name)?.id;
      return res.body.health.find((h) => h.ftpserverid === id);
    };
    const client = byName('Client FTP');
    assert.equal(client?.failing, true);
    assert.equal(client?.waiting, 3);
    assert.match(client?.lastError ?? '', /530/);
    const agency = byName('Agency FTP');
    assert.equal(agency?.failing, false, "the script error is not the server's");
    assert.equal(agency?.lastResult, 'succeeded');
    assert.ok(agency?.lastDeliveryAt);
    assert.equal(agency?.waiting, 0);
    assert.equal(agency?.lastError, null);
    assert.deepEqual(agency?.projects, [`Match ${tag}`]);
    // Another team sees none of them.
    const other = await makeTeam(server);
    const foreign = await other.owner.client.get<{ health: unknown[] }>(
      `/api/${other.teamUuid}/ftpservers/health`,
    );
    assert.deepEqual(foreign.body.health, []);
  });
});
