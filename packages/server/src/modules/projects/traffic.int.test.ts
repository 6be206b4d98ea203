// The overview chart's traffic (issue 16): per hour over the asked days and per minute over the
// last hour, counted from the uploads and the delivered jobs of the project only.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({}, { role: 'web' });
});
after(() => server.stop());

type Counts = { filesIn: number; bytesIn: number; filesOut: number; bytesOut: number };
type Stats = { hours: Array<Counts & { hour: string }>; minutes: Array<Counts & { minute: string }> };

const minuteMs = 60_000;
const hourMs = 3_600_000;
const floorTo = (time: number, step: number) => new Date(Math.floor(time / step) * step).toISOString();

test('traffic per minute over the last hour and per hour over the days asked', async () => {
  const team = await makeTeam(server);
  const reader = await makeMember(server, team, 'Photographer');
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const parentFolderId = (await rootFolder(server, team, 'projects')).id;
  const project = (await c.post<{ projectId: number }>(`${base}/project`, { name: 'Cup', parentFolderId }))
    .body.projectId;
  const other = (await c.post<{ projectId: number }>(`${base}/project`, { name: 'Other', parentFolderId }))
    .body.projectId;

  const db = server.running.ctx.db;
  const upload = async (projectId: number, size: number, at: number) => {
    const { rows } = await sql<{ id: number }>`
      insert into uploads (team_id, project_id, path, filename, size, sha256, blob_key, protocol, chain, received_at)
      values (${team.teamId}, ${projectId}, '/', ${`f${at}.jpg`}, ${size}, 'x', 'x', 'ftp', '{}', ${new Date(at)})
      returning id`.execute(db);
    return Number(rows[0].id);
  };
  const job = (uploadId: number, projectId: number, state: string, at: number) =>
    sql`insert into jobs (team_id, upload_id, project_id, state, finished_at)
        values (${team.teamId}, ${uploadId}, ${projectId}, ${state}, ${new Date(at)})`.execute(db);

  // Away from a minute's edge, so the minutes below are the ones the server sees.
  while (Date.now() % minuteMs > 50_000) await new Promise((resolve) => setTimeout(resolve, 200));
  const now = Date.now();
  const tenAgo = now - 10 * minuteMs;
  const first = await upload(project, 1_000_000, tenAgo);
  await upload(project, 2_000_000, tenAgo);
  await job(first, project, 'succeeded', now - 9 * minuteMs);
  await job(first, project, 'failed', now - 8 * minuteMs);
  await upload(project, 500_000, now);
  // Older than the hour: only in the hourly series.
  const older = await upload(project, 4_000_000, now - 61 * minuteMs);
  await job(older, project, 'succeeded', now - 3 * hourMs);
  await upload(project, 7_000, now - 2 * 24 * hourMs);
  // Another project's traffic is not this project's.
  await upload(other, 9_999, now - 5 * minuteMs);

  const answer = await c.get<Stats>(`${base}/project/${project}/stats?days=3`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.deepEqual(answer.body.minutes, [
    { minute: floorTo(tenAgo, minuteMs), filesIn: 2, bytesIn: 3_000_000, filesOut: 0, bytesOut: 0 },
    {
      minute: floorTo(now - 9 * minuteMs, minuteMs),
      filesIn: 0,
      bytesIn: 0,
      filesOut: 1,
      bytesOut: 1_000_000,
    },
    { minute: floorTo(now, minuteMs), filesIn: 1, bytesIn: 500_000, filesOut: 0, bytesOut: 0 },
  ]);
  const sum = (key: keyof Counts) => answer.body.hours.reduce((total, hour) => total + hour[key], 0);
  assert.deepEqual(
    {
      filesIn: sum('filesIn'),
      bytesIn: sum('bytesIn'),
      filesOut: sum('filesOut'),
      bytesOut: sum('bytesOut'),
    },
    { filesIn: 5, bytesIn: 7_507_000, filesOut: 2, bytesOut: 5_000_000 },
  );
  assert.ok(answer.body.hours.some((hour) => hour.hour === floorTo(now - 3 * hourMs, hourMs)));
  // One day back leaves the two-day-old upload out; the minutes stay the same.
  const day = await c.get<Stats>(`${base}/project/${project}/stats?days=1`);
  assert.equal(
    day.body.hours.reduce((total, hour) => total + hour.filesIn, 0),
    4,
  );
  assert.deepEqual(day.body.minutes, answer.body.minutes);

  // A project without traffic has empty series; a photographer without access gets nothing.
  assert.deepEqual((await c.get<Stats>(`${base}/project/${other}/stats`)).body.hours.length, 1);
  const none = await c.post<{ projectId: number }>(`${base}/project`, { name: 'Quiet', parentFolderId });
  assert.deepEqual((await c.get<Stats>(`${base}/project/${none.body.projectId}/stats`)).body, {
    hours: [],
    minutes: [],
  });
  assert.notEqual((await reader.client.get(`${base}/project/${project}/stats`)).status, 200);
  // Bad input changes nothing and is answered clearly.
  assert.equal((await c.get(`${base}/project/${project}/stats?days=0`)).status, 400);
  assert.equal((await c.get(`${base}/project/${project}/stats?days=x`)).status, 400);
});
